// Closed-form shape of a pipeline schedule: which model chunks each rank holds, how many
// parameter copies that makes, and the peak micro-batch activations alive on each rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/scenario.hpp"

namespace tslab {

struct pipeline_shape {
    std::int64_t chunks = 1;  // the model is cut into this many chunks
    double param_copies = 1;  // model copies held by the pipeline
    std::vector<std::vector<std::int64_t>> rank_chunks;  // chunk ids held by each pipeline rank
    std::vector<double> inflight;  // peak (micro-batch × chunk) activations per rank
    std::string inflight_formula;  // the closed form used, in words
};

// Layers of chunk `c` when `layers` are cut into `chunks` contiguous pieces (the first
// `layers mod chunks` chunks take one extra layer).
std::int64_t chunk_first_layer(std::int64_t layers, std::int64_t chunks, std::int64_t c);

// Peak (micro-batch × chunk) activations alive on pipeline rank `rank`: the closed forms of
// closed_form_shape, one rank at a time (the planner's memory path).
double inflight_of(schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m, std::int64_t rank);

pipeline_shape closed_form_shape(schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m);

}  // namespace tslab
