// Closed forms for the bubble and the Megatron communication of a step, summed without overlap.
// Sources: bubble (p−1)/m and interleaved (p−1)/(v·m), Narayanan et al. arXiv 2104.04473 section
// 2.2; TP AllReduces 2 forward + 2 backward per layer, section 3.3 (Megatron, arXiv 1909.08053
// Figure 4); scatter/gather P2P of b·s·h/t per stage boundary, section 4.1.
#include "tslab/step_closed_form.hpp"

#include <algorithm>

#include "tslab/params.hpp"

namespace tslab {

double ring_allreduce_s(double bytes, double n, const link_spec& link) {
    if (n <= 1) return 0;
    return 2 * (n - 1) / n * bytes / link.bandwidth_Bps + 2 * (n - 1) * link.latency_s;
}

link_spec dp_ring_link(const scenario& s) {
    const auto& q = s.parallel;
    const double stride = static_cast<double>(q.tp * q.cp);  // order tp-cp-ep-dp-pp: DP is next
    const double per_node = std::max(1.0, static_cast<double>(s.cluster.gpus_per_node) / stride);
    if (static_cast<double>(q.dp) <= per_node) return s.cluster.intra_node;
    link_spec l = s.cluster.inter_node;
    l.bandwidth_Bps *= std::min(per_node, static_cast<double>(q.dp));
    return l;
}

closed_form_step closed_form_step_time(const scenario& s, const compute_estimate& c) {
    const auto& q = s.parallel;
    const auto& t = s.training;
    const double m = static_cast<double>(c.microbatches);
    closed_form_step r;
    r.compute_s = c.step_compute_s;
    const double v = t.schedule == schedule_kind::interleaved ? static_cast<double>(q.vpp) : 1.0;
    r.bubble_s = static_cast<double>(q.pp - 1) / (v * m) * m * (c.fwd_s + c.bwd_s + c.recompute_s);
    const double act = static_cast<double>(t.micro_batch * t.seq_len / q.cp * s.model.hidden) *
                       static_cast<double>(dtype_bytes(t.precision.activations));
    const double per_layer = t.recompute == recompute_kind::full ? 6.0 : 4.0;
    r.tp_comm_s = m * static_cast<double>(c.stage_layers) * per_layer *
                  ring_allreduce_s(act, static_cast<double>(q.tp), s.cluster.intra_node);
    const double local = static_cast<double>(count_params(s.model).total) / static_cast<double>(q.tp * q.pp);
    r.dp_comm_s = ring_allreduce_s(local * static_cast<double>(dtype_bytes(t.precision.grads)),
                                   static_cast<double>(q.dp * q.cp), dp_ring_link(s));
    if (q.pp > 1) {
        const link_spec& l = s.cluster.inter_node;
        const double msg = act / static_cast<double>(q.tp);
        r.p2p_s = 2 * m * v * (msg / l.bandwidth_Bps + l.latency_s);
    }
    r.time_s = r.compute_s + r.bubble_s + r.tp_comm_s + r.dp_comm_s + r.p2p_s;
    return r;
}

}  // namespace tslab
