// Profiles loaded once and named by scenarios (profile_store.hpp); UTF-8-safe source lines.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/profile_store.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {
std::string quick_profile() {
    std::ifstream f(std::string(TSLAB_SOURCE_DIR) + "/tests/data/calibration/cpu-2rank-quick.json");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
}  // namespace

TEST_CASE("a stored profile is used by name and gives the same report as the inline object", "[profile_store]") {
    const std::string text = quick_profile();
    store_profile("lab", parse_calibration_text(text, ""));
    const json inline_doc = {{"cluster", {{"preset", "dgx-h100"}, {"calibration", parse_json(text)}}}};
    const json named_doc = {{"cluster", {{"preset", "dgx-h100"}, {"calibration", "lab"}}}};
    CHECK(report_json_text(named_doc.dump()) == report_json_text(inline_doc.dump()));
    drop_profile("lab");
    CHECK(stored_profile("lab") == nullptr);
    CHECK_THROWS_WITH(report_json_text(named_doc.dump()), Catch::StartsWith("cluster.calibration: no profile \"lab\" is loaded"));
}

TEST_CASE("the profile's created date is cut without splitting a UTF-8 character", "[profile_store]") {
    // Issue 15, finding 7: created was cut at 10 bytes, giving invalid UTF-8 (wasm type_error.316).
    json doc = parse_json(quick_profile());
    doc["created"] = "2026-12-0\xC3\xA9T00:00";
    const calibration_profile p = parse_calibration(doc, "");
    CHECK_THAT(p.source(), Catch::Contains(", 2026-12-0") && !Catch::Contains("2026-12-0\xC3"));
    const json r = {{"cluster", {{"preset", "dgx-h100"}, {"calibration", doc}}}};
    CHECK_NOTHROW(json::parse(report_json_text(r.dump())));
}
