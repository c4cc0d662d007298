// The scenario → per-chunk cost hook, and the report taking in-flight counts from the simulator.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tslab/pipeline_cost_model.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

scenario scenario_with(const std::string& schedule, std::int64_t pp, std::int64_t global_batch, std::int64_t vpp = 1) {
    return parse_scenario_text(R"({"model": {"preset": "gpt-22b"}, "cluster": {"preset": "dgx-h100"},
        "parallel": {"tp": 8, "pp": )" + std::to_string(pp) + R"(, "vpp": )" + std::to_string(vpp) + R"(},
        "training": {"seq_len": 2048, "micro_batch": 1, "global_batch": )" + std::to_string(global_batch) +
                               R"(, "schedule": ")" + schedule + R"("}})");
}

}  // namespace

TEST_CASE("cost hook: 6·N_active·tokens split 1:2 over stages·tp·cp at bf16 peak, W = B/2") {
    const scenario s = scenario_with("1f1b", 4, 16);
    const param_counts c = count_params(s.model);
    const pipeline_costs k = scenario_pipeline_costs(s, c, 4);
    // forward FLOPs of one chunk: 2·N·tokens / (stages·tp), at 989.5 TFLOP/s (H100 SXM dense bf16)
    const double f = 2.0 * static_cast<double>(c.active) * 2048.0 / (4.0 * 8.0) / 989.5e12;
    CHECK(k.F == Approx(f));
    CHECK(k.B == Approx(2 * f));
    CHECK(k.W == Approx(f));
    CHECK(k.fb() == Approx(3 * f));
}

TEST_CASE("report: 1F1B in-flight counts come from the simulator and still equal min(p − r, m)") {
    for (std::int64_t m : {2, 16}) {
        const report r = build_report(scenario_with("1f1b", 4, m));
        REQUIRE(r.pipeline_simulated);
        for (std::int64_t rank = 0; rank < 4; ++rank)
            CHECK(r.pipeline.inflight[static_cast<std::size_t>(rank)] == std::min<double>(4 - rank, m));
        CHECK(r.bubble_fraction == Approx(3.0 / (m + 3.0)));  // (p−1)/(m+p−1), equal stage times
    }
}

TEST_CASE("report: DualPipe holds PP + 1 in flight and 2 parameter copies; JSON has makespan and bubble") {
    const report r = build_report(scenario_with("dualpipe", 4, 8));
    REQUIRE(r.pipeline_simulated);
    CHECK(r.pipeline.param_copies == 2);
    CHECK(*std::max_element(r.pipeline.inflight.begin(), r.pipeline.inflight.end()) == 5);  // DualPipe README: PP + 1
    const json j = report_to_json(r);
    CHECK(j["pipeline"]["makespan_s"].get<double>() > 0);
    CHECK(j["pipeline"]["bubble_fraction"].get<double>() > 0);
    CHECK(j["pipeline"]["simulated"] == true);
}
