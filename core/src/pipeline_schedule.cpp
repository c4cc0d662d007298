// Schedule requests: names, preconditions, the op cap, stage placement and generator dispatch.
#include "tslab/pipeline_schedule.hpp"

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

const char* to_string(op_kind k) {
    static const char* names[] = {"F", "B", "I", "W", "FB"};
    return names[static_cast<int>(k)];
}

const std::vector<std::string>& pipeline_schedule_names() {
    static const std::vector<std::string> names = {"gpipe", "1f1b", "interleaved", "zb-h1",
                                                   "zb-h2", "zbv", "dualpipe", "dualpipev"};
    return names;
}

namespace {

bool is_v_shape(schedule_kind k) { return k == schedule_kind::zbv || k == schedule_kind::dualpipev; }
bool splits_backward(schedule_kind k) {
    return k == schedule_kind::zb_h1 || k == schedule_kind::zb_h2 || k == schedule_kind::zbv ||
           k == schedule_kind::dualpipe || k == schedule_kind::dualpipev;
}

void check_dual(const schedule_request& q) {
    const char* name = to_string(q.kind);
    // DualPipe step(): assert num_ranks % 2 == 0 and num_chunks % 2 == 0 and num_chunks >= 2·num_ranks
    // (deepseek-ai/DualPipe dualpipe/dualpipe.py); DualPipeV: num_chunks >= 2·num_ranks (dualpipev.py).
    if (q.kind == schedule_kind::dualpipe && q.ranks % 2 != 0)
        throw input_error("ranks", fmt::format("DualPipe needs an even number of ranks (PP), got {}", q.ranks));
    if (q.kind == schedule_kind::dualpipe && q.microbatches % 2 != 0)
        throw input_error("microbatches", fmt::format("DualPipe splits m into two directions, so m must be even, got {}", q.microbatches));
    if (q.microbatches < 2 * q.ranks)
        throw input_error("microbatches", fmt::format("{} needs m ≥ 2·ranks = {} micro-batches, got {}", name,
                                                      2 * q.ranks, q.microbatches));
}

}  // namespace

std::int64_t schedule_stages(const schedule_request& q) {
    if (q.kind == schedule_kind::interleaved) return q.ranks * q.vpp;
    return is_v_shape(q.kind) ? 2 * q.ranks : q.ranks;
}

double schedule_op_estimate(const schedule_request& q) {
    const double per = splits_backward(q.kind) ? 3.0 : 2.0;  // F, B or F, I, W per micro-batch and stage
    double stages = static_cast<double>(q.ranks) * (q.kind == schedule_kind::interleaved ? static_cast<double>(q.vpp) : 1.0);
    if (is_v_shape(q.kind)) stages *= 2;
    return static_cast<double>(q.microbatches) * stages * per;
}

double schedule_work_estimate(const schedule_request& q) {
    if (q.kind != schedule_kind::zbv) return schedule_op_estimate(q);
    schedule_request padded = q;  // ZB-V generates 2p − 1 micro-batches at least, then drops the padding
    padded.microbatches = std::max<std::int64_t>(q.microbatches, 2 * q.ranks - 1);
    return schedule_op_estimate(padded);
}

void check_schedule_request(const schedule_request& q) {
    if (q.ranks < 1) throw input_error("ranks", fmt::format("must be at least 1, got {}", q.ranks));
    if (q.microbatches < 1) throw input_error("microbatches", fmt::format("must be at least 1, got {}", q.microbatches));
    if (q.vpp < 1) throw input_error("vpp", fmt::format("must be at least 1, got {}", q.vpp));
    if (q.vpp > 1 && q.kind != schedule_kind::interleaved)
        throw input_error("vpp", fmt::format("{} needs schedule interleaved, not {}", q.vpp, to_string(q.kind)));
    if (q.extra_warmup != 0 && q.kind != schedule_kind::interleaved)
        throw input_error("extra_warmup", "extra warm-up micro-batches (Kimi K2) apply to the interleaved schedule only");
    if (q.kind == schedule_kind::interleaved) {
        if (q.vpp < 2) throw input_error("vpp", "interleaved 1F1B needs vpp ≥ 2 model chunks per rank");
        // Narayanan et al. (arXiv 2104.04473) section 2.2: m must be a multiple of the pipeline size.
        if (q.microbatches % q.ranks != 0)
            throw input_error("microbatches", fmt::format("interleaved 1F1B needs m = {} divisible by ranks = {}", q.microbatches, q.ranks));
        if (q.vpp > 255) throw input_error("vpp", fmt::format("at most 255 chunks per rank, got {}", q.vpp));
    }
    // ZB-V has no precondition beyond m ≥ 1: the authors' handcrafted generator pads m up to the
    // 2p − 1 micro-batches of its steady state and drops the padding (pipeline_schedule_zbv.cpp).
    if (q.kind == schedule_kind::dualpipe || q.kind == schedule_kind::dualpipev) check_dual(q);
    const double ops = schedule_work_estimate(q);
    if (ops > static_cast<double>(max_schedule_ops))
        throw input_error(q.microbatches == 1 ? "ranks" : "microbatches",
                          fmt::format("{} with ranks {} · m {} · vpp {} needs {:.4g} ops{}, over the cap of {} ops",
                                      to_string(q.kind), q.ranks, q.microbatches, q.vpp, ops,
                                      q.kind == schedule_kind::zbv && q.microbatches < 2 * q.ranks - 1 ? " (ZB-V generates at least 2·ranks − 1 micro-batches)" : "",
                                      max_schedule_ops));
}

pipeline_schedule generate_schedule(const schedule_request& q) {
    check_schedule_request(q);
    pipeline_schedule s;
    s.kind = q.kind;
    s.ranks = q.ranks;
    s.microbatches = q.microbatches;
    s.vpp = q.vpp;
    s.stages = schedule_stages(q);
    s.chunks_per_rank = q.kind == schedule_kind::interleaved ? q.vpp : (is_v_shape(q.kind) || q.kind == schedule_kind::dualpipe ? 2 : 1);
    s.placement = q.kind == schedule_kind::dualpipe ? stage_placement::dual
                  : is_v_shape(q.kind)             ? stage_placement::v_shape
                                                   : stage_placement::linear;
    s.param_copies = q.kind == schedule_kind::dualpipe ? 2.0 : 1.0;
    s.stage_params_per_device = static_cast<double>(s.chunks_per_rank);
    s.rank_ops.resize(static_cast<std::size_t>(q.ranks));
    const double per_rank = schedule_work_estimate(q) / static_cast<double>(q.ranks);
    for (auto& ops : s.rank_ops) ops.reserve(static_cast<std::size_t>(per_rank) + 1);
    switch (q.kind) {
        case schedule_kind::interleaved: detail::generate_interleaved(s, q.extra_warmup); break;
        case schedule_kind::zbv: detail::generate_zbv(s); break;
        case schedule_kind::dualpipe:
        case schedule_kind::dualpipev: detail::generate_dualpipe(s); break;
        default: detail::generate_basic(s); break;
    }
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
