// The planner against what the teams of the training set ran (tests/validation/training_set.json):
// the best plan is at most 10% faster than the published layout at its best knobs, the report's
// layout_rank finds the published layout among the 10 best layouts (all rows but the 1T one), and
// dense models at short sequences get no CP.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "tslab/planner.hpp"
#include "tslab/validation_set.hpp"

using namespace tslab;

namespace {

const std::vector<validation_case>& training_cases() {
    static const std::vector<validation_case> c = parse_validation_cases(json::parse(embedded_validation_set()));
    return c;
}

std::int64_t rank_of_layout(const plan_result& r, const plan_choice& layout) {
    for (std::size_t i = 0; i < r.top.size(); ++i)
        if (r.top[i].choice.same_layout(layout)) return static_cast<std::int64_t>(i) + 1;
    return 0;
}

double segment_of(const plan_entry& e, const std::string& id) {
    for (const auto& g : e.segments)
        if (g.id == id) return g.time_s;
    return 0;
}

// The note on the best plan against the published layout at its best knobs: the speed-up between
// the two report times, and each named segment's difference between the two reports.
void check_versus_layout(const plan_result& r) {
    REQUIRE(r.baseline.best_versus_layout.has_value());
    const versus_baseline& v = *r.baseline.best_versus_layout;
    const plan_entry &best = r.top.front(), &layout = *r.baseline.best_of_layout;
    CHECK(v.speedup == Approx(layout.time_s / best.time_s).epsilon(1e-12));
    CHECK(v.largest.size() <= 3);
    for (std::size_t i = 0; i < v.largest.size(); ++i) {
        CHECK(v.largest[i].delta_s == Approx(segment_of(best, v.largest[i].id) - segment_of(layout, v.largest[i].id)).epsilon(1e-12));
        if (i > 0) CHECK(std::abs(v.largest[i].delta_s) <= std::abs(v.largest[i - 1].delta_s));
    }
    // The same plan on both sides: nothing separates them.
    if (best.scenario == layout.scenario)
        CHECK((v.largest.empty() && v.speedup == 1.0));
    else
        CHECK_FALSE(v.largest.empty());
    CHECK(v.note.find("its layout at its best knobs") != std::string::npos);
}

}  // namespace

TEST_CASE("Planner realism: on every training-set run the best plan is at most 10% faster than the published layout", "[planner][realism]") {
    const auto& cases = training_cases();
    REQUIRE(cases.size() == 16);
    for (const auto& c : cases) {
        const plan_result r = run_plan(c.input, {});
        INFO(c.row.id << " (" << c.row.layout << "), published layout ranks " << rank_of_layout(r, plan_choice_of(c.input)));
        REQUIRE((r.progress.done && !r.progress.capped));
        REQUIRE(r.top.size() == 10);
        CHECK(r.baseline.layout_rank == rank_of_layout(r, plan_choice_of(c.input)));
        // The published layout among the 10 best distinct layouts. Open gap: the 1T row (Narayanan
        // Table 1, pp 64 at 2 layers per stage) ranks 15th of 30: the model finds pp 8-32 with
        // Megatron-Core's distributed optimizer (ZeRO-1, not in the 2021 stack) up to 3.9% faster,
        // from a smaller bubble and a lighter last stage (the logits layer weighs 8% at 2 layers per
        // stage), against a larger DP all-gather; best_versus_layout names these three.
        // Held to the 2021 stack (options.fixed), it ranks 2nd (test_planner_fixed).
        if (c.row.id != "narayanan2021-t1-1t") CHECK((r.baseline.layout_rank >= 1 && r.baseline.layout_rank <= 10));
        // The best plan against the published layout at the best knobs the search found for it.
        REQUIRE(r.baseline.best_of_layout.has_value());
        CHECK(r.baseline.best_of_layout->time_s / r.top.front().time_s <= 1.10);
        check_versus_layout(r);
        // Sequences of 2K and 4K on hundreds of GPUs: no context parallelism at the top.
        if (!c.input.model.is_moe() && c.input.training.seq_len <= 8192) CHECK(r.top.front().choice.cp == 1);
    }
}

TEST_CASE("Planner realism: Llama 3 70B on 1024 H100 at 4K gets no context parallelism as its best plan", "[planner][realism]") {
    // The issue's repro: the top plan was tp 1, cp 4, where Ring CP's 2K-token chunks run the
    // attention kernel at half its long-sequence efficiency and TP's SP collectives hide on NVLink.
    const scenario s = parse_scenario_text(R"({"model": "llama3-70b", "cluster": "dgx-h100", "parallel": {"dp": 128, "tp": 8},
        "training": {"seq_len": 4096, "global_batch": 1024}})");
    const plan_result r = run_plan(s, {});
    REQUIRE_FALSE(r.top.empty());
    CHECK(r.top.front().choice.cp == 1);
}
