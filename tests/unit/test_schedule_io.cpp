// The schedule SPEC (schedule_io.hpp): defaults derive from what the user gave, names and errors
// come from the schedule rows, and the JSON facade runs end to end.
#include <catch2/catch.hpp>

#include "tslab/errors.hpp"
#include "tslab/schedule_io.hpp"

using namespace tslab;

TEST_CASE("regression: F and B alone never break W ≤ B through a default the user did not set", "[schedule_io]") {
    // interleaved runs full backwards (no W op); the spec gives F = 1, B = 0.5 only.
    const schedule_spec s = parse_schedule_spec(json::parse(R"({"schedule": "interleaved", "ranks": 4, "microbatches": 8, "vpp": 2,
                                                               "costs": {"F": 1, "B": 0.5}})"));
    CHECK(0.25 == s.costs.W);  // half of the B given, the ratio of the defaults F = 1, B = 2, W = 1
    CHECK_NOTHROW(run_schedule(s));
    const json out = json::parse(schedule_json_text(R"({"schedule": "zb-h1", "ranks": 2, "microbatches": 4, "costs": {"B": 0.5}})"));
    CHECK(out["schedule"] == "zb-h1");
}

TEST_CASE("a W the user gives is still checked against B", "[schedule_io]") {
    CHECK_THROWS_WITH(schedule_json_text(R"({"schedule": "zb-h1", "costs": {"F": 1, "B": 0.5, "W": 1}})"),
                      "costs.W: the weight-grad part W = 1 exceeds the full backward B = 0.5");
}

TEST_CASE("defaults: 1F1B on 4 ranks, 8 micro-batches, F = 1, B = 2, W = 1", "[schedule_io]") {
    const schedule_spec s = parse_schedule_spec(json::object());
    CHECK(schedule_kind::one_f_one_b == s.request.kind);
    CHECK(4 == s.request.ranks);
    CHECK(8 == s.request.microbatches);
    CHECK(1.0 == s.costs.F);
    CHECK(2.0 == s.costs.B);
    CHECK(1.0 == s.costs.W);
}

TEST_CASE("schedule names come from the rows, with a did-you-mean", "[schedule_io]") {
    for (const schedule_desc& d : schedule_rows) {
        const json spec = {{"schedule", d.name}, {"ranks", 4}, {"microbatches", 8}, {"vpp", d.chunks == chunks_rule::vpp ? 2 : 1}};
        CHECK(d.kind == parse_schedule_spec(spec).request.kind);
    }
    CHECK_THROWS_WITH(parse_schedule_spec(json{{"schedule", "dualpipv"}}),
                      Catch::Contains("schedule: unknown value \"dualpipv\"") && Catch::Contains("did you mean dualpipe"));
}

TEST_CASE("schedule_work_text: the work of a SPEC before any is done, and where the lab runs it", "[schedule_io]") {
    // 1F1B lists F and B per micro-batch and stage: 2·p·m = 2·4·8 ops.
    json w = json::parse(schedule_work_text(R"({"schedule": "1f1b", "ranks": 4, "microbatches": 8})"));
    CHECK(w["schema"] == "tslab/schedule-work@1");
    CHECK(64.0 == w["op_count"].get<double>());
    CHECK(64.0 == w["work_ops"].get<double>());
    CHECK(w["foreground"] == true);
    // ZB-V: 2p stages (V shape), F, I, W each; the generator pads m = 1 up to 2p − 1 = 127 micro-batches.
    w = json::parse(schedule_work_text(R"({"schedule": "zbv", "ranks": 64, "microbatches": 1, "timeline": false})"));
    CHECK(384.0 == w["op_count"].get<double>());  // 1 · 128 · 3
    CHECK(48768.0 == w["work_ops"].get<double>());  // 127 · 128 · 3
    // One rank, a million micro-batches: 2M ops, at the cap, too slow for a frame.
    w = json::parse(schedule_work_text(R"({"schedule": "1f1b", "ranks": 1, "microbatches": 1000000, "timeline": false})"));
    CHECK(w["foreground"] == false);
    CHECK(max_foreground_ops < 2'000'000);
    // Errors are the run's own, before the run: the ZB-V padding over the op cap names ranks.
    CHECK_THROWS_WITH(schedule_work_text(R"({"schedule": "zbv", "ranks": 65536, "microbatches": 1})"),
                      Catch::Contains("ranks: zbv with ranks 65536") && Catch::Contains("over the cap of 2000000 ops"));
    CHECK_THROWS_WITH(schedule_work_text(R"({"schedule": "1f1b", "ranks": 0})"), Catch::StartsWith("ranks: "));
}
