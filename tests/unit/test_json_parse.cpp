// Parsing untrusted JSON under limits (json_parse.hpp): each limit a typed error naming it, paths
// rooted at "$", linear keys, and no crash on deep nesting (issue 15, findings 2, 4 and 7).
#include <catch2/catch.hpp>

#include <string>

#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {
std::string message_of(const std::string& text, const std::string& path = "") {
    try {
        parse_json(text, path);
    } catch (const input_error& e) {
        return e.what();
    }
    return "no error";
}
}  // namespace

TEST_CASE("deep nesting is refused at depth 64 while parsing, never a stack overflow", "[json_parse]") {
    const std::string deep = R"({"model":{"x":)" + std::string(100000, '[') + "1" + std::string(100000, ']') + "}}";
    CHECK_THAT(message_of(deep), Catch::Contains("nested deeper than 64 levels (the limit is 64)"));
    CHECK_THROWS_WITH(report_json_text(deep), Catch::StartsWith("model.x[0]") && Catch::Contains("the limit is 64"));
    CHECK_NOTHROW(parse_json(std::string(63, '[') + std::string(63, ']')));
}

TEST_CASE("input size and fields per object are limited, each error naming its limit", "[json_parse]") {
    const std::string big = "[" + std::string(5 << 20, ' ') + "]";
    CHECK_THAT(message_of(big), Catch::Contains("exceed the input limit of 4194304 bytes"));
    std::string keys = "{";
    for (int i = 0; i < 1025; ++i) keys += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
    keys += "}";
    CHECK_THAT(message_of("{\"model\":" + keys + "}"), Catch::StartsWith("model: more than 1024 fields"));
}

TEST_CASE("objects of 1000 keys parse within the input limit — duplicates are refused by name", "[json_parse]") {
    // 400 objects of 1000 keys (3.6 MB, under the 4 MiB input limit); the speed of key insertion is
    // measured by the benchmarks, not asserted here.
    std::string text = "[";
    for (int o = 0; o < 400; ++o) {
        text += o ? ",{" : "{";
        for (int i = 0; i < 1000; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
        text += "}";
    }
    text += "]";
    const json doc = parse_json(text);
    CHECK(doc.size() == 400);
    CHECK(doc[399]["k999"] == 1);
    CHECK(message_of(R"({"model":{"layers":1,"layers":2}})") == "model.layers: given twice");
}

TEST_CASE("errors have a path in plain words: $ for the document, quoted odd keys, number overflow", "[json_parse]") {
    CHECK_THROWS_WITH(report_json_text("null"), "$: expected an object, got null");
    CHECK_THROWS_WITH(report_json_text("[1]"), "$: expected an object, got an array");
    CHECK_THROWS_WITH(report_json_text("7"), "$: expected an object, got a number");
    CHECK_THROWS_WITH(report_json_text(R"({"":1})"), Catch::StartsWith(R"($[""]: unknown field)"));
    CHECK(message_of(R"({"a":[1, 1e400]})") == "a[1]: the number 1e400 is out of range (beyond ±1.8e308)");
    CHECK_THAT(message_of(R"({"a":)"), Catch::StartsWith("$: truncated JSON at byte"));
    CHECK_THAT(message_of(R"({"a" 1})", "cluster.calibration"), Catch::StartsWith("cluster.calibration: malformed JSON"));
    CHECK(join_path("model", "moe") == "model.moe");
    CHECK(join_path("", "a b") == R"($["a b"])");
}

TEST_CASE("UTF-8 text is cut at character boundaries", "[json_parse]") {
    const std::string date = "2026-12-0\xC3\xA9";  // 'é' straddles byte 10
    CHECK(utf8_prefix(date, 10) == "2026-12-0");
    CHECK(utf8_prefix("abc", 10) == "abc");
    CHECK(utf8_excerpt(std::string(100, 'x'), 8) == "xxxxxxxx\xE2\x80\xA6");
}
