// Closed forms for in-flight activations: GPipe m; 1F1B p − r (Narayanan et al. arXiv 2104.04473
// section 2.2); interleaved (v−1)·p + 2(p−r−1) + 1 chunks (Megatron warm-up count, = p(1+(p−1)/(pv))
// stages on rank 0); ZB-H1 p and ZB-H2 2p−1 on every rank, the peaks of arXiv 2401.10241 Table 1 held
// until each deferred W (as the generated schedules do); ZB-V 2p chunks of half a
// stage (section 6: 1F1B's memory on every rank); DualPipe PP+1 stages with 2× params, DualPipeV 2PP+1 half-stage chunks (DualPipe README).
#include "tslab/schedule_shape.hpp"

#include <algorithm>

namespace tslab {

std::int64_t chunk_first_layer(std::int64_t layers, std::int64_t chunks, std::int64_t c) {
    const std::int64_t base = layers / chunks, extra = layers % chunks;
    return c * base + std::min(c, extra);
}

namespace {

void one_chunk_per_rank(pipeline_shape& s, std::int64_t pp) {
    s.chunks = pp;
    for (std::int64_t r = 0; r < pp; ++r) s.rank_chunks.push_back({r});
}

// V shape: rank r holds chunk r on the way down and chunk 2pp−1−r on the way back.
void v_shape(pipeline_shape& s, std::int64_t pp) {
    s.chunks = 2 * pp;
    for (std::int64_t r = 0; r < pp; ++r) s.rank_chunks.push_back({r, 2 * pp - 1 - r});
}

}  // namespace

double inflight_of(schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m, std::int64_t rank) {
    const double md = static_cast<double>(m), p = static_cast<double>(pp), r = static_cast<double>(rank);
    switch (k) {
        case schedule_kind::gpipe: return md;
        case schedule_kind::one_f_one_b: return std::min(p - r, md);
        // The W passes deferred into the drain keep their activations: every rank reaches the peak.
        case schedule_kind::zb_h1: return std::min(p, md);
        case schedule_kind::zb_h2: return std::min(2 * p - 1, md);
        case schedule_kind::interleaved: {
            const double v = static_cast<double>(vpp);
            return std::min((v - 1) * p + 2 * (p - r - 1) + 1, md * v);
        }
        // End of the ZB-V warm-up (pipeline_schedule_zbv.cpp phases 1–3): min(m, 2p−r−1) F0, min(m, r)
        // F1 and, when r < m, the first F1 of phase 3; with m ≥ 2p − 1 that is 2p on every rank.
        case schedule_kind::zbv: return std::min({2 * p, 2 * md, md + r + 1});
        case schedule_kind::dualpipe: return p + 1;
        case schedule_kind::dualpipev: return 2 * p + 1;
    }
    return md;
}

namespace {

const char* inflight_formula(schedule_kind k) {
    switch (k) {
        case schedule_kind::gpipe: return "GPipe: all m micro-batches";
        case schedule_kind::one_f_one_b: return "1F1B: min(p − r, m) on rank r";
        case schedule_kind::zb_h1: return "ZB-H1: min(p, m) on every rank (W deferred)";
        case schedule_kind::zb_h2: return "ZB-H2: min(2p − 1, m) on every rank (W deferred)";
        case schedule_kind::interleaved: return "interleaved: (v−1)p + 2(p−r−1) + 1 chunks = p(1 + (p−1)/(pv)) stages on rank 0";
        case schedule_kind::zbv: return "ZB-V: min(2p, 2m, m + r + 1) half-stage chunks on rank r (2p = 1F1B's bytes)";
        case schedule_kind::dualpipe: return "DualPipe: PP + 1 stages, 2× parameters";
        case schedule_kind::dualpipev: return "DualPipeV: PP + 1 with PP = 2p half-stage chunks";
    }
    return "";
}

}  // namespace

pipeline_shape closed_form_shape(schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m) {
    pipeline_shape s;
    switch (k) {
        case schedule_kind::interleaved:
            s.chunks = pp * vpp;
            for (std::int64_t r = 0; r < pp; ++r) {
                s.rank_chunks.emplace_back();
                for (std::int64_t j = 0; j < vpp; ++j) s.rank_chunks.back().push_back(r + j * pp);
            }
            break;
        case schedule_kind::zbv:
        case schedule_kind::dualpipev: v_shape(s, pp); break;
        case schedule_kind::dualpipe:
            s.chunks = pp;
            for (std::int64_t r = 0; r < pp; ++r) s.rank_chunks.push_back({r, pp - 1 - r});
            s.param_copies = 2;
            break;
        default: one_chunk_per_rank(s, pp);
    }
    for (std::int64_t r = 0; r < pp; ++r) s.inflight.push_back(inflight_of(k, pp, vpp, m, r));
    s.inflight_formula = inflight_formula(k);
    return s;
}

}  // namespace tslab
