// The validation set (validation_set.hpp): the embedded training set equals the repository file,
// every row predicts, Narayanan Table 1 rows stay within 5%, the other rows within 8%, and bad
// rows are input errors that name their path.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "tslab/errors.hpp"
#include "tslab/validation_narayanan.hpp"
#include "tslab/validation_cv.hpp"
#include "tslab/validation_set.hpp"

using namespace tslab;

namespace {

std::string file_text(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

const accuracy_report& training_set() {
    static const accuracy_report r = predict_validation_text(embedded_validation_set(), embedded_validation_path);
    return r;
}

}  // namespace

TEST_CASE("The embedded validation set is the repository's training_set.json", "[validation]") {
    CHECK(embedded_validation_set() == file_text(std::string(TSLAB_SOURCE_DIR) + "/" + embedded_validation_path));
}

TEST_CASE("Training set: Narayanan Table 1 rows within 5%, the others within 8%", "[validation]") {
    const accuracy_report& r = training_set();
    REQUIRE(r.rows.size() == 16);
    int narayanan = 0;
    double sum = 0, worst = 0;
    for (const auto& a : r.rows) {
        INFO(a.id << " (" << a.layout << "): " << a.metric << " predicted " << a.predicted << " vs published " << a.published);
        CHECK(a.predicted > 0);
        CHECK(a.error == Approx(a.predicted / a.published - 1).epsilon(1e-12));
        if (a.source == "arXiv 2104.04473 Table 1") {
            ++narayanan;
            CHECK(std::abs(a.error) < 0.05);
        } else {
            CHECK(std::abs(a.error) < 0.08);  // the rest of the training set (issue: within 8% per row)
        }
        sum += std::abs(a.error);
        worst = std::max(worst, std::abs(a.error));
    }
    CHECK(narayanan == 10);
    CHECK(r.mean_abs_error == Approx(sum / 16).epsilon(1e-12));
    CHECK(r.max_abs_error == worst);
}

TEST_CASE("Narayanan rows of the set predict what predict_narayanan does (eq. 3 TF/s per GPU)", "[validation]") {
    const accuracy_report& r = training_set();
    for (std::size_t i = 0; i < narayanan_table1().size(); ++i) {
        const auto& row = narayanan_table1()[i];
        const scenario s = narayanan_scenario(row);
        const narayanan_prediction p = predict_narayanan(row, s);
        INFO(row.model);
        CHECK(r.rows[i].published == row.published_tflops);
        CHECK(r.rows[i].gpus == row.gpus);
        CHECK(r.rows[i].predicted == Approx(p.predicted_tflops).epsilon(1e-9));
    }
}

TEST_CASE("A bad validation file is an input error naming the path", "[validation]") {
    CHECK_THROWS_AS(predict_validation_text("{", "x.json"), input_error);
    try {
        predict_validation_text(R"({"schema": "tslab/validation@1", "rows": [{"id": "a", "source": {"paper": "p", "arxiv": "1",
            "table": "T"}, "class": {"kind": "dense", "gpu": "a100"}, "scenario": {"model": "gpt-1.7b"},
            "published": {"metric": "speed", "value": 1}}]})",
                                "x.json");
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(e.path() == "rows[0].published.metric");
    }
    try {
        predict_validation_text(R"({"schema": "tslab/validation@1", "rows": [{"id": "a", "source": {"paper": "p", "arxiv": "1",
            "table": "T"}, "class": {"kind": "dense", "gpu": "a100"}, "scenario": {"model": "gpt-1.7b", "parallel": {"tp": 5}},
            "published": {"metric": "iteration_s", "value": 1}}]})",
                                "x.json");
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(e.path() == "rows[0].scenario.parallel.tp");
    }
}

TEST_CASE("Accuracy JSON and table carry every row and the summary", "[validation]") {
    const accuracy_report& r = training_set();
    const json j = json::parse(accuracy_json_text(r));
    CHECK(j["schema"] == "tslab/accuracy@1");
    CHECK(j["rows"].size() == 16);
    CHECK(j["max_row"] == r.max_row);
    const std::string md = accuracy_markdown(r);
    for (const auto& a : r.rows) CHECK(md.find("| " + a.id + " |") != std::string::npos);
    CHECK(md.find("mean |error|") != std::string::npos);
}
