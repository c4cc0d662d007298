// Schedule requests: preconditions, the op cap, stage placement and the generator of the row.
#include "tslab/pipeline_schedule.hpp"

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/schedule_rules.hpp"

namespace tslab {

const char* to_string(op_kind k) {
    static const char* names[] = {"F", "B", "I", "W", "FB"};
    return names[static_cast<int>(k)];
}

std::int64_t schedule_stages(const schedule_request& q) { return path_stages(describe(q.kind), q.ranks, q.vpp); }

double schedule_op_estimate(const schedule_request& q) {
    const double per = describe(q.kind).split_backward ? 3.0 : 2.0;  // F, B or F, I, W per micro-batch and stage
    return static_cast<double>(q.microbatches) * static_cast<double>(schedule_stages(q)) * per;
}

double schedule_work_estimate(const schedule_request& q) {
    schedule_request padded = q;  // a generator that pads m (the row's pad_m_*) walks the padding too
    padded.microbatches = describe(q.kind).generated_microbatches(q.microbatches, q.ranks);
    return schedule_op_estimate(padded);
}

bool pairs_fb(const schedule_request& q) { return describe(q.kind).ep_overlap || q.pair_steady; }

std::int64_t warmup_forwards(const schedule_request& q, std::int64_t r) {
    const std::int64_t p = q.ranks, m = q.microbatches, v = q.vpp;
    if (q.kind == schedule_kind::interleaved) return std::min(2 * (p - r - 1) + (v - 1) * p + q.extra_warmup, m * v);
    return std::min(p - r - 1, m);
}

bool pair_steady_allowed(schedule_kind k, std::int64_t ranks) {
    return k == schedule_kind::interleaved || (k == schedule_kind::one_f_one_b && ranks == 1);
}

void check_schedule_request(const schedule_request& q) {
    check_schedule_preconditions(q.kind, q.ranks, q.microbatches, q.vpp, spec_paths);
    // ZB-V has no precondition beyond m ≥ 1: the authors' handcrafted generator pads m up to the
    // 2p − 1 micro-batches of its steady state and drops the padding (pipeline_schedule_zbv.cpp).
    if (q.extra_warmup != 0 && describe(q.kind).chunks != chunks_rule::vpp)
        throw input_error("extra_warmup", msg("schedule.extra_warmup_interleaved_only"));
    if (q.pair_steady && !pair_steady_allowed(q.kind, q.ranks))
        throw input_error("ep_overlap",
                          msg("schedule.pair_steady_interleaved_only", {{"schedule", to_string(q.kind)}, {"pp", fmt::format("{}", q.ranks)}}));
    const double ops = schedule_work_estimate(q);
    if (ops > static_cast<double>(max_schedule_ops))
        throw input_error(q.microbatches == 1 ? "ranks" : "microbatches",
                          msg(describe(q.kind).generated_microbatches(q.microbatches, q.ranks) > q.microbatches ? "schedule.ops_over_cap_zbv"
                                                                                                                : "schedule.ops_over_cap",
                              {{"schedule", to_string(q.kind)},
                               {"ranks", fmt::format("{}", q.ranks)},
                               {"m", fmt::format("{}", q.microbatches)},
                               {"vpp", fmt::format("{}", q.vpp)},
                               {"ops", fmt::format("{:.4g}", ops)},
                               {"cap", fmt::format("{}", max_schedule_ops)}}));
}

pipeline_schedule generate_schedule(const schedule_request& q) {
    check_schedule_request(q);
    const schedule_desc& d = describe(q.kind);
    pipeline_schedule s;
    s.kind = q.kind;
    s.ranks = q.ranks;
    s.microbatches = q.microbatches;
    s.vpp = q.vpp;
    s.stages = schedule_stages(q);
    s.chunks_per_rank = chunks_per_rank(d, q.vpp);
    s.placement = d.placement;
    s.param_copies = d.param_copies;
    s.stage_params_per_device = static_cast<double>(s.chunks_per_rank);
    s.rank_ops.resize(static_cast<std::size_t>(q.ranks));
    const double per_rank = schedule_work_estimate(q) / static_cast<double>(q.ranks);
    for (auto& ops : s.rank_ops) ops.reserve(static_cast<std::size_t>(per_rank) + 1);
    d.generate(s, q);
    return s;
}

stage_slot locate(const pipeline_schedule& s, std::int64_t mb, std::int64_t stage) {
    const std::int64_t p = s.ranks;
    switch (s.placement) {
        case stage_placement::linear: return {stage % p, stage / p};
        case stage_placement::v_shape: return stage < p ? stage_slot{stage, 0} : stage_slot{2 * p - 1 - stage, 1};
        case stage_placement::dual:
            // The second half of the micro-batches runs the mirrored pipeline on chunk 1.
            return mb < s.microbatches / 2 ? stage_slot{stage, 0} : stage_slot{p - 1 - stage, 1};
    }
    return {};
}

namespace detail {

void rank_builder::f(std::int64_t stage, std::int64_t mb, std::int64_t chunk) {
    pipeline_op o;
    o.kind = op_kind::F;
    o.stage = static_cast<std::int32_t>(stage);
    o.microbatch = static_cast<std::int32_t>(mb);
    o.chunk = static_cast<std::uint8_t>(chunk);
    ops.push_back(o);
}

void rank_builder::b(op_kind k, std::int64_t stage, std::int64_t mb, std::int64_t chunk) {
    f(stage, mb, chunk);
    ops.back().kind = k;
}

void rank_builder::pair_last_b_f() {
    const pipeline_op fwd = ops.back();
    ops.pop_back();
    const pipeline_op bwd = ops.back();
    ops.pop_back();
    fb(fwd, bwd);
}

void rank_builder::fb(const pipeline_op& fwd, const pipeline_op& bwd) {
    pipeline_op o = fwd;
    o.kind = op_kind::FB;
    o.b_stage = bwd.stage;
    o.b_microbatch = bwd.microbatch;
    o.b_chunk = bwd.chunk;
    ops.push_back(o);
}

}  // namespace detail

}  // namespace tslab
