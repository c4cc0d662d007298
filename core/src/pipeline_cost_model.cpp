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
    return q;
}

pipeline_costs chunk_costs(const compute_estimate& c, const schedule_request& q, double p2p_s, const stage_comm& comm) {
    // estimate_compute's chunk_* are a stage's work / vpp; one chunk of the path is a stage's
    // work × ranks / stages.
    const double scale = static_cast<double>(q.vpp * q.ranks) / static_cast<double>(schedule_stages(q));
    const double v = static_cast<double>(q.vpp);
    pipeline_costs k;
    k.F = (c.chunk_F_s + comm.fwd_s / v) * scale;
    k.W = c.chunk_W_s * scale;
    k.B = (c.chunk_B_s + c.chunk_W_s + comm.bwd_s / v) * scale;
    k.FB = -1;
    k.p2p_s = p2p_s;
    return k;
}

pipeline_timing closed_form_pipeline(const schedule_request& q, const pipeline_costs& c) {
    const double p = static_cast<double>(q.ranks), m = static_cast<double>(q.microbatches);
    const double per_rank = static_cast<double>(schedule_stages(q)) / p;
    pipeline_timing t;
    t.busy_s = m * (c.F + c.B) * per_rank;
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
    const pipeline_schedule sched = generate_schedule(q);
    const pipeline_timeline with = simulate_pipeline(sched, c);
    pipeline_timing t;
    t.simulated = true;
    t.makespan_s = with.makespan_s;
    t.busy_s = busiest(with);
    t.bubble_fraction = with.bubble_fraction;
    t.param_copies = with.param_copies;
    t.peak_inflight.reserve(with.ranks.size());
    for (const auto& r : with.ranks) t.peak_inflight.push_back(static_cast<double>(r.peak_inflight));
    double no_p2p = with.makespan_s;
    if (c.p2p_s > 0) {
        pipeline_costs z = c;
        z.p2p_s = 0;
        no_p2p = simulate_pipeline(sched, z).makespan_s;
    }
    t.bubble_s = std::max(0.0, no_p2p - t.busy_s);
    t.p2p_exposed_s = std::max(0.0, t.makespan_s - no_p2p);
    return t;
}

}  // namespace tslab
