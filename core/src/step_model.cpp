// Gathering the step model's inputs: per-axis communication, L6 routing, L7 context, L8, L9.
#include "tslab/step_model.hpp"

#include <algorithm>

#include "tslab/cp_overlap.hpp"
#include "tslab/dp_overlap.hpp"
#include "tslab/tp_overlap.hpp"

namespace tslab {

double pp_transfer_exposed_s(const comm_inventory& c) {
    for (const auto& it : c.items)
        if (it.axis == "pp") return it.call.time_s * (1.0 - it.overlap);
    return 0;
}

std::vector<axis_comm> axis_totals(const comm_inventory& c, double ep_hidden_s) {
    std::vector<axis_comm> out = axis_sums(c);
    take_ep_hidden(out, ep_hidden_s);
    return out;
}

void take_ep_hidden(std::vector<axis_comm>& axes, double ep_hidden_s) {
    for (auto& a : axes)
        if (a.axis == "ep") a.exposed_s = std::max(0.0, a.exposed_s - ep_hidden_s);
}

double ep_sm_share(const scenario& s) { return std::min(1.0, static_cast<double>(s.training.moe.comm_sms) / static_cast<double>(s.cluster.gpu.sms)); }

stage_comm stage_comm_per_microbatch(const comm_inventory& c, std::int64_t microbatches, double sm_share) {
    stage_comm out;
    out.sm_share = sm_share;
    const double m = static_cast<double>(std::max<std::int64_t>(1, microbatches));
    for (const auto& it : c.items) {
        if (it.per == "step" || it.per == "micro-batch") continue;  // dp/edp per step, pp: the simulator's p2p
        if (it.axis != "tp" && it.axis != "cp" && it.axis != "ep") continue;
        const double t = it.step_exposed_s() / m;
        double& f = it.axis == "ep" ? out.ep_fwd_s : out.fwd_s;
        double& b = it.axis == "ep" ? out.ep_bwd_s : out.bwd_s;
        f += t * it.forward_share;
        b += t * (1 - it.forward_share);
    }
    return out;
}

ep_overlap_report ep_overlap_of(const schedule_request& q, const pipeline_costs& k, double sm_share) {
    ep_overlap_report r;
    r.pairs = fewest_overlapped_pairs(q);
    r.hidden_s = ep_hidden_s(q, k);
    r.sm_share = r.pairs > 0 ? sm_share : 0;
    return r;
}

step_comm step_comm_of(const scenario& s, const mesh_layout& mesh, const param_counts& pc, const compute_estimate& c, std::int64_t microbatches,
                       bool item_text) {
    step_comm out{build_comm_inventory(s, mesh, pc, item_text), {}};
    apply_cp_overlap(out.inventory, s, c);
    apply_tp_overlap(out.inventory, s, c);
    out.per_microbatch = stage_comm_per_microbatch(out.inventory, microbatches, ep_sm_share(s));
    apply_dp_bucket_overlap(out.inventory, s, c, out.per_microbatch);
    apply_zero3_prefetch(out.inventory, s, c, out.per_microbatch);
    return out;
}

std::vector<axis_comm> ep_cp_axes_of(const scenario& s, const mesh_layout& mesh, const param_counts& pc, const compute_estimate& c) {
    comm_inventory inv = build_ep_cp_inventory(s, mesh, pc, false);
    apply_cp_overlap(inv, s, c);
    return axis_totals(inv);
}

step_inputs gather_step_inputs(const scenario& s, const compute_estimate& c, const pipeline_timing& timing, const memory_report& m,
                               const comm_inventory& comm, const ep_overlap_report& ep) {
    step_inputs in;
    in.compute = c;
    in.bubble_s = timing.bubble_s;
    in.p2p_exposed_s = timing.p2p_exposed_s;
    in.comm = axis_totals(comm, ep.hidden_s);
    in.ep_overlap = ep;
    in.memory = m;
    in.expert = expert_ledger(s, {s.training.moe.imbalance, s.training.moe.redundant_experts});
    in.context = context_traffic(s);
    in.numerics = describe_numerics(s);
    in.reliability = reliability_of_scenario(s, checkpoint_state_bytes_of(m));
    return in;
}

}  // namespace tslab
