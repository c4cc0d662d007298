// Shared assertion of the zero-bubble tests: every rank busy for `busy_s` with no idle inside its span.
#pragma once

#include <catch2/catch.hpp>

#include "tslab/pipeline_sim.hpp"

inline void check_no_idle_inside_spans(const tslab::pipeline_timeline& t, double busy_s) {
    for (std::size_t k = 0; k < t.ranks.size(); ++k) {
        INFO("rank " << k);
        CHECK(t.ranks[k].busy_s == Approx(busy_s));
        CHECK(t.ranks[k].span_s - t.ranks[k].busy_s == Approx(0.0).margin(1e-9));
    }
}
