// Per-chunk op costs from the compute model and the pipeline timing of a scenario's schedule.
#include "tslab/pipeline_cost_model.hpp"

#include <algorithm>

#include "tslab/errors.hpp"

namespace tslab {

schedule_request scenario_schedule_request(const scenario& s, std::int64_t microbatches) {
    schedule_request q;
    q.kind = s.training.schedule;
    q.ranks = s.parallel.pp;
    q.microbatches = microbatches;
    q.vpp = s.parallel.vpp;
    q.pair_steady = s.training.moe.a2a_overlap;
    return q;
}

pipeline_costs chunk_costs(const compute_estimate& c, const schedule_request& q, double p2p_s, const stage_comm& comm) {
    // estimate_compute's chunk_* are a stage's work / vpp; one chunk of the path is a stage's
    // work × ranks / stages.
    const double scale = static_cast<double>(q.vpp * q.ranks) / static_cast<double>(schedule_stages(q));
    const double v = static_cast<double>(q.vpp);
    const double cf = c.chunk_F_s * scale, cb = (c.chunk_B_s + c.chunk_W_s) * scale;
    const double of = comm.fwd_s / v * scale, ob = comm.bwd_s / v * scale;
    const double af = comm.ep_fwd_s / v * scale, ab = comm.ep_bwd_s / v * scale;
    pipeline_costs k;
    k.F = cf + of + af;
    k.W = c.chunk_W_s * scale;
    k.B = cb + ob + ab;
    k.FB = -1;
    if (pairs_fb(q) && (af > 0 || ab > 0)) k.FB = overlapped_phase_s(cb, af, comm.sm_share) + overlapped_phase_s(cf, ab, comm.sm_share) + of + ob;
    k.p2p_s = p2p_s;
    return k;
}

double overlapped_phase_s(double compute_s, double comm_s, double sm_share) {
    if (comm_s * (1 - sm_share) >= compute_s) return comm_s;
    return compute_s + sm_share * comm_s;
}

double fewest_overlapped_pairs(const schedule_request& q) {
    if (q.pair_steady) {
        // The steady phase of rank 0, which warms up longest (pipeline_schedule_basic.cpp,
        // pipeline_schedule_interleaved.cpp): each backward but the last pairs with the forward after
        // it, m·v − warm-up − 1 pairs.
        const double total = static_cast<double>(q.microbatches * q.vpp);
        return std::max(0.0, total - static_cast<double>(warmup_forwards(q, 0)) - 1);
    }
    if (!describe(q.kind).ep_overlap || q.ranks < 2) return 0;
    const bool dual = describe(q.kind).placement == stage_placement::dual;
    const double n = static_cast<double>(dual ? q.ranks / 2 : q.ranks);
    const double per_direction = static_cast<double>(dual ? q.microbatches / 2 : q.microbatches);
    const double pairs = n == 1 ? 2 * per_direction - 3 : 2 * per_direction - 3 * n + 1;
    return std::max(0.0, pairs);
}

double ep_hidden_s(const schedule_request& q, const pipeline_costs& c) { return fewest_overlapped_pairs(q) * std::max(0.0, c.F + c.B - c.fb()); }

pipeline_timing closed_form_pipeline(const schedule_request& q, const pipeline_costs& c) {
    const double p = static_cast<double>(q.ranks), m = static_cast<double>(q.microbatches);
    const double per_rank = static_cast<double>(schedule_stages(q)) / p;
    pipeline_timing t;
    t.busy_s = m * (c.F + c.B) * per_rank;
    if (q.pair_steady) t.busy_s -= ep_hidden_s(q, c);  // the paired steady phase: F&B ops instead of F + B
    const schedule_desc& d = describe(q.kind);
    t.bubble_s = d.bubble({p, c.F, c.B, c.W, c.fb()});
    t.bubble_s = std::max(0.0, t.bubble_s);
    t.p2p_exposed_s = 2 * (p - 1) * c.p2p_s;
    t.makespan_s = t.busy_s + t.bubble_s + t.p2p_exposed_s;
    t.bubble_fraction = t.makespan_s > 0 ? 1 - t.busy_s / t.makespan_s : 0;
    t.param_copies = d.param_copies;
    return t;
}

namespace {

double busiest(const pipeline_timeline& t) {
    double b = 0;
    for (const auto& r : t.ranks) b = std::max(b, r.busy_s);
    return b;
}

}  // namespace

pipeline_timing time_pipeline(const schedule_request& q, const pipeline_costs& c) {
    // One stage has no bubble and no stage-to-stage transfer: the closed form m·(F+B) is exact, and
    // the simulator would only walk the m micro-batches (1024 of them under the auto batch rule).
    if (q.ranks == 1) return closed_form_pipeline(q, c);
    if (schedule_op_estimate(q) > static_cast<double>(max_schedule_ops)) return closed_form_pipeline(q, c);
    // The scenario rules check the same preconditions (schedule_rules.hpp): a request that reaches
    // here is generated, or the error names the broken rule.
    return time_schedule(generate_schedule(q), c);
}

pipeline_timing time_schedule(const pipeline_schedule& sched, const pipeline_costs& c) {
    double no_p2p = 0;
    const pipeline_timeline with = simulate_pipeline(sched, c, c.p2p_s > 0 ? &no_p2p : nullptr);
    pipeline_timing t;
    t.simulated = true;
    t.makespan_s = with.makespan_s;
    t.busy_s = busiest(with);
    t.bubble_fraction = with.bubble_fraction;
    t.param_copies = with.param_copies;
    t.peak_inflight.reserve(with.ranks.size());
    for (const auto& r : with.ranks) t.peak_inflight.push_back(static_cast<double>(r.peak_inflight));
    if (c.p2p_s <= 0) no_p2p = with.makespan_s;
    t.bubble_s = std::max(0.0, no_p2p - t.busy_s);
    t.p2p_exposed_s = std::max(0.0, t.makespan_s - no_p2p);
    return t;
}

}  // namespace tslab
