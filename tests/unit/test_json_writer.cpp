// The streaming writer prints exactly what nlohmann::json::dump(2) prints for the same document.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "tslab/json_writer.hpp"
#include "tslab/presets.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

std::string streamed(const json& j) {
    return write_json([&](json_writer& w) { w.value(j); });
}

}  // namespace

TEST_CASE("json_writer: scalars, escapes, empty and nested containers as dump(2)", "[json_writer]") {
    const json doc = {{"doubles", {0.0, -0.0, 1.0, 0.1, 1e-7, 1e21, 123456.789, -2.5, 5e-324, std::numeric_limits<double>::max()}},
                      {"integers", {std::numeric_limits<std::int64_t>::min(), std::int64_t{0}, std::numeric_limits<std::int64_t>::max()}},
                      {"unsigned", std::numeric_limits<std::uint64_t>::max()},
                      {"escapes", "quote \" backslash \\ \b\f\n\r\t \x01\x1f \x7f"},
                      {"utf8", "dp·tp·pp ≠ world 中文"},
                      {"flags", {true, false, nullptr}},
                      {"empty_object", json::object()},
                      {"empty_array", json::array()},
                      {"nested", {{"a", json::array({json::object(), json::array(), json::array({1, 2})})}, {"b", {{"c", json::object()}}}}}};
    CHECK(streamed(doc) == doc.dump(2));
    CHECK(streamed(json::object()) == "{}");
    CHECK(streamed(json::array()) == "[]");
}

TEST_CASE("json_writer: doubles over random bit patterns print as dump() does", "[json_writer]") {
    std::mt19937_64 rng(20240521);
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        std::string out;
        json_writer(out).value(d);
        INFO(bits);
        REQUIRE(out == json(d).dump());  // NaN and inf print as null in both
    }
}

// Why the writer calls dump() rather than a shortest round-trip formatter: Grisu2's digits are not
// always the shortest, and the report must print what dump(2) prints.
TEST_CASE("json_writer: doubles keep dump()'s Grisu2 digits where shorter ones round-trip", "[json_writer]") {
    std::string out;
    json_writer(out).value(31.15808);
    CHECK(out == "31.158080000000002");
    CHECK(std::stod("31.15808") == 31.15808);
    for (const double d : {1.0, -0.0, 1e20, 1e15, 1e16, 1.5e-7, 1e-4, 1e-5, 123456789012345.0}) CHECK(streamed(json(d)) == json(d).dump());
}

TEST_CASE("json_writer: typed fields match the tree nlohmann builds from the same C++ values", "[json_writer]") {
    const std::vector<std::string> warnings = {"one", "two"};
    const std::vector<double> peaks = {1.5, 2.0};
    const std::string text = write_json([&](json_writer& w) {
        w.begin_object();
        w.field("int", 3).field("size", std::size_t{7}).field("double", 0.25).field("bool", true);
        w.field("literal", "x").field("warnings", warnings).field("peaks", peaks);
        w.key("list").begin_array();
        w.value(std::int64_t{-1});
        w.null_value();
        w.end_array();
        w.field("nan", std::nan(""));
        w.end_object();
    });
    const json tree = {{"int", 3},           {"size", std::size_t{7}}, {"double", 0.25}, {"bool", true},
                       {"literal", "x"},     {"warnings", warnings},   {"peaks", peaks}, {"list", {std::int64_t{-1}, nullptr}},
                       {"nan", std::nan("")}};
    CHECK(text == tree.dump(2));
}

// Every preset's report re-printed by nlohmann after parsing is the same text: same layout, and
// every number round-trips (the facade's output is what dump(2) would have printed).
TEST_CASE("json_writer: report text equals nlohmann's re-print of it for every model preset", "[json_writer][report]") {
    for (const auto& m : model_preset_names())
        for (const char* c : {"dgx-h100", "hgx-h800"}) {
            const std::string text = report_text(build_report(parse_scenario(json{{"model", m}, {"cluster", c}})));
            INFO(m << " on " << c);
            CHECK(json::parse(text).dump(2) == text);
        }
}
