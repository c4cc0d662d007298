// Closed-form pipeline shapes from the schedule rows (schedule_table.hpp, which cites each formula):
// the chunks each rank holds by stage placement, parameter copies and the in-flight count per rank.
#include "tslab/schedule_shape.hpp"

#include <algorithm>

namespace tslab {

std::int64_t chunk_first_layer(std::int64_t layers, std::int64_t chunks, std::int64_t c) {
    const std::int64_t base = layers / chunks, extra = layers % chunks;
    return c * base + std::min(c, extra);
}

namespace {

// V shape: rank r holds chunk r on the way down and chunk 2pp−1−r on the way back.
void v_shape(pipeline_shape& s, std::int64_t pp) {
    s.chunks = 2 * pp;
    for (std::int64_t r = 0; r < pp; ++r) s.rank_chunks.push_back({r, 2 * pp - 1 - r});
}

}  // namespace

double inflight_of(schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m, std::int64_t rank) {
    return describe(k).inflight(static_cast<double>(pp), static_cast<double>(vpp), static_cast<double>(m), static_cast<double>(rank));
}

pipeline_shape closed_form_shape(schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m) {
    const schedule_desc& d = describe(k);
    pipeline_shape s;
    switch (d.placement) {
        case stage_placement::linear: {  // stage s on rank s mod p: rank r holds r, r + p, ...
            const std::int64_t v = chunks_per_rank(d, vpp);
            s.chunks = pp * v;
            for (std::int64_t r = 0; r < pp; ++r) {
                s.rank_chunks.emplace_back();
                for (std::int64_t j = 0; j < v; ++j) s.rank_chunks.back().push_back(r + j * pp);
            }
            break;
        }
        case stage_placement::v_shape: v_shape(s, pp); break;
        case stage_placement::dual:  // two mirrored pipelines over the same p chunks
            s.chunks = pp;
            for (std::int64_t r = 0; r < pp; ++r) s.rank_chunks.push_back({r, pp - 1 - r});
            break;
    }
    s.param_copies = d.param_copies;
    for (std::int64_t r = 0; r < pp; ++r) s.inflight.push_back(inflight_of(k, pp, vpp, m, r));
    s.inflight_formula = std::string(d.label) + ": " + d.inflight_formula;
    return s;
}

}  // namespace tslab
