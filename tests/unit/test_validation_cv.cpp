// Leave-one-family-out cross-validation (validation_cv.hpp): the stored refits are what the
// documented routine finds, each row is predicted with its own family's refit, and the validation
// file's optional fields (family, url sources, outside_mean, the two new metrics) behave as documented.
#include <catch2/catch.hpp>

#include <cmath>

#include "tslab/accuracy_class.hpp"
#include "tslab/errors.hpp"
#include "tslab/report.hpp"
#include "tslab/validation_cv.hpp"
#include "tslab/validation_fit.hpp"

using namespace tslab;

namespace {

std::vector<validation_case> training_cases() { return parse_validation_cases(json::parse(embedded_validation_set())); }

// A one-row validation document around a preset scenario, to be edited by each test.
json one_row(const std::string& metric, double value) {
    return {{"schema", "tslab/validation@1"},
            {"rows",
             {{{"id", "r"},
               {"source", {{"paper", "p"}, {"arxiv", "0000.00000"}, {"table", "Table 1"}}},
               {"class", {{"kind", "dense"}, {"gpu", "h100"}}},
               {"scenario", {{"model", "llama3-8b"}, {"cluster", "dgx-h100"}, {"parallel", {{"dp", 8}}}}},
               {"published", {{"metric", metric}, {"value", value}}}}}}};
}

}  // namespace

TEST_CASE("Re-running the documented fit without each family lands on the stored refits", "[validation][fit][cv]") {
    const auto refits = refit_without_each_family(training_cases());
    REQUIRE(refits.size() == stored_family_fits().size());
    for (std::size_t i = 0; i < refits.size(); ++i) {
        INFO(refits[i].family);
        CHECK(refits[i].family == stored_family_fits()[i].family);
        CHECK(refits[i].in_step == Approx(stored_family_fits()[i].in_step).margin(1e-9));
        CHECK(refits[i].gpu_speed_cv == Approx(stored_family_fits()[i].gpu_speed_cv).margin(1e-9));
    }
}

TEST_CASE("Each training row is predicted with the constants fitted without its family", "[validation][cv]") {
    const accuracy_report r = embedded_accuracy();
    REQUIRE(r.families.size() == 3);  // Narayanan Table 1, MegaScale Table 2, Nemotron-4 15B Table 2
    for (auto c : training_cases()) {
        const family_fit* f = stored_family_fit(c.row.family);
        REQUIRE(f != nullptr);
        scenario s = c.input;
        s.cluster.gpu.gemm.in_step = f->in_step;
        s.cluster.gpu_speed_cv = f->gpu_speed_cv;
        const double want = predict_case(c, s) / c.row.published - 1;
        for (const auto& a : r.rows)
            if (a.id == c.row.id) {
                CHECK(a.cv_error == Approx(want).epsilon(1e-12));
                CHECK(a.fitted);
            }
    }
    // The MegaScale refit differs from the full fit (its cv is off the bound), so its rows move.
    for (const auto& a : r.rows)
        if (a.family == "megascale2024-t2") CHECK(std::abs(a.cv_error - a.error) > 1e-3);
    CHECK(r.cv_max_abs_error >= r.max_abs_error - 1e-12);
}

TEST_CASE("A constant at the end of the range the fit searches is named", "[validation][cv]") {
    CHECK(constants_at_bound(0.815, max_gpu_speed_cv) == std::vector<std::string>{"cluster.gpu_speed_cv"});
    CHECK(constants_at_bound(0.815, 0.02).empty());
    CHECK(constants_at_bound(min_in_step, 0).size() == 1);
    CHECK(constants_at_bound(max_in_step, max_gpu_speed_cv).size() == 2);
}

TEST_CASE("Published runs: held-out rows keep their error, training rows listed again are cross-validated", "[validation][cv]") {
    const accuracy_report& p = embedded_published_accuracy();
    int fitted = 0, outside = 0;
    for (const auto& a : p.rows) {
        INFO(a.id);
        if (a.training_family.empty()) {
            CHECK(a.cv_error == a.error);
            CHECK_FALSE(a.fitted);
        } else {
            ++fitted;
            CHECK(a.fitted);
        }
        outside += !a.outside_mean.empty();
    }
    CHECK(fitted == 5);  // MegaScale Table 2 (3 rows) and Nemotron-4 15B Table 2 (2 rows) are training runs
    CHECK(outside == 2);  // torchtitan's two eager-mode throughput rows
    CHECK(p.counted == static_cast<std::int64_t>(p.rows.size()) - 2);
}

TEST_CASE("A row listed outside the mean is reported but not averaged", "[validation][cv]") {
    json doc = one_row("tokens_per_s_per_gpu", 1000);
    doc["rows"].push_back(doc["rows"][0]);
    doc["rows"][1]["id"] = "r2";
    doc["rows"][1]["outside_mean"] = "a reason";
    doc["rows"][1]["published"]["value"] = 1;  // an absurd figure: 1 token/s
    const accuracy_report r = predict_validation_set(doc, "t");
    CHECK(r.counted == 1);
    CHECK(r.max_row == "r");
    CHECK(r.rows[1].error > 100);
}

TEST_CASE("tokens_per_s_per_gpu and memory_gib read the report", "[validation][cv]") {
    const accuracy_report t = predict_validation_set(one_row("tokens_per_s_per_gpu", 1000), "t");
    const accuracy_report m = predict_validation_set(one_row("memory_gib", 40), "t");
    const report rep = build_report(parse_scenario(one_row("x", 1)["rows"][0]["scenario"]), 0);
    CHECK(t.rows[0].predicted == Approx(rep.step.tokens_per_s / 8));
    CHECK(m.rows[0].predicted == Approx(rep.memory.total_bytes / 1073741824.0));
    CHECK(time_ratio_of(m.rows[0], 0.1) == 0);  // memory says nothing about step time
    CHECK(time_ratio_of(t.rows[0], 0.1) == Approx(1.1));
}

TEST_CASE("A source needs an arXiv id or a URL, and with a URL the label is paper and table", "[validation][cv]") {
    json doc = one_row("mfu", 0.4);
    doc["rows"][0]["source"].erase("arxiv");
    try {
        predict_validation_set(doc, "t");
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(e.path() == "rows[0].source.arxiv");
    }
    doc["rows"][0]["source"]["url"] = "https://example.org/log";
    CHECK(predict_validation_set(doc, "t").rows[0].source == "p Table 1");
    CHECK(predict_validation_set(doc, "t").rows[0].family == "p Table 1");  // default family: the source
}

TEST_CASE("The prediction interval comes from the closest class and always holds the prediction", "[validation][cv]") {
    const auto rows = out_of_sample_rows(embedded_accuracy(), embedded_published_accuracy());
    // 16 training rows, plus the 22 published runs no fit saw (14 + Korthikanti Table 5's 8), less
    // the two outside the mean and the two memory rows.
    CHECK(rows.size() == 16 + 22 - 2 - 2);
    scenario dense = parse_scenario(json{{"model", "llama3-70b"}, {"cluster", "dgx-h100"}, {"parallel", {{"dp", 8}, {"tp", 8}}}});
    const accuracy_class_summary c = closest_accuracy_class(dense, rows);
    CHECK(c.match == "class");
    // Nemotron-4 15B Table 2 (3, cross-validated), Llama 3 405B Table 4 rows 1-2, Nemotron-4 340B BF16 (2).
    CHECK(c.runs == 7);
    CHECK(c.time_low <= 1);
    CHECK(c.time_high >= 1);
    dense.training.seq_len = 131072;
    CHECK(closest_accuracy_class(dense, rows).match_context == "long");  // Llama 3 405B Table 4 row 3 (128K, CP 16)
    scenario moe = parse_scenario(json{{"model", "deepseek-v3"}, {"cluster", "dgx-b200"}});
    CHECK(closest_accuracy_class(moe, rows).match == "kind");  // no B200 run: MoE runs of any GPU
}
