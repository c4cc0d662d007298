// The message registry: ids unique and sorted, English rendering, programming errors caught, and the
// report's English sentences exactly the rendering of the message ids it carries beside them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "tslab/calibration.hpp"
#include "tslab/collectives.hpp"
#include "tslab/errors.hpp"
#include "tslab/messages.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/report.hpp"
#include "tslab/scenario.hpp"

using namespace tslab;

TEST_CASE("the catalog is sorted by id, ids unique, templates non-empty", "[messages]") {
    const auto c = message_catalog();
    REQUIRE(c.size() > 40);
    for (std::size_t i = 1; i < c.size(); ++i) CHECK(c[i - 1].id < c[i].id);
    for (const auto& t : c) CHECK(!t.en.empty());
}

TEST_CASE("english() fills every {name} from the message's parameters", "[messages]") {
    const message m = msg("mesh.ep_spans_nodes", {{"nodes", "4"}});
    CHECK(english(m) == "ep group spans 4 nodes: All-to-All is NIC-bound");
    const std::vector<message> clauses{msg("step.note.no_axes"), msg("step.note.slowest_gpu", {{"time", "0.5"}})};
    CHECK(english(clauses) == "no dp or tp traffic; 0.5 s waiting for the slowest GPU");
}

TEST_CASE("an unregistered id or a missing parameter is a programming error", "[messages]") {
    CHECK_THROWS_AS(msg("no.such.id"), std::logic_error);
    CHECK_THROWS_AS(msg("mesh.ep_spans_nodes"), std::logic_error);  // {nodes} not given
}

TEST_CASE("an input error keeps \"path: reason\" and its message", "[messages]") {
    const input_error e("parallel.cp", msg("context.cp_splits_nothing", {{"method", "Ring"}}));
    CHECK(std::string(e.what()) == "parallel.cp: 1 splits nothing; Ring needs cp ≥ 2");
    CHECK(e.msg().id == "context.cp_splits_nothing");
    const json j = input_error_json(e);
    CHECK(j["msg"]["args"]["method"] == "Ring");
    CHECK(j["path"] == "parallel.cp");
}

TEST_CASE("report: each English sentence is the rendering of the message ids beside it", "[messages]") {
    const json doc = json::parse(R"({"model": "llama3-70b", "cluster": "dgx-h100",
        "parallel": {"dp": 8, "tp": 8, "pp": 4, "sp": true, "zero": 1}, "training": {"seq_len": 4096, "recompute": "selective"}})");
    const report r = build_report(parse_scenario(doc), 0);
    REQUIRE(r.step.bottleneck_msg.size() == 2);
    CHECK(r.step.bottleneck == english(r.step.bottleneck_msg));
    CHECK_THAT(r.step.bottleneck, Catch::Contains("binds first"));
    for (const auto& l : r.step.ledgers) CHECK(l.notes == english(l.notes_msg));
    REQUIRE(r.mesh.warnings.size() == r.mesh.warnings_msg.size());
    for (std::size_t i = 0; i < r.mesh.warnings.size(); ++i) CHECK(r.mesh.warnings[i] == english(r.mesh.warnings_msg[i]));
}

// The input error `run` throws (an input_error is expected; anything else fails the test).
template <class F>
input_error tool_error_of(F&& run) {
    try {
        run();
    } catch (const input_error& e) {
        return e;
    }
    FAIL("no input_error thrown");
    throw std::logic_error("not reached");
}

TEST_CASE("tool errors carry their message id and the unchanged English reason", "[messages]") {
    // The English reasons as before the ids (tests/data/calibration/README.md wrong-schema.json,
    // test_collectives.cpp "ranks: 1 must be at least 2", test_schedule_rules.cpp dualpipev 4 × 7).
    const input_error schema = tool_error_of([] { parse_calibration_text(R"({"schema": "tslab/calibration@2"})"); });
    CHECK(schema.msg().id == "calibration.schema_unsupported");
    CHECK(std::string(schema.what()) == "schema: \"tslab/calibration@2\" is not supported; expected tslab/calibration@1");

    const input_error ranks = tool_error_of([] { collective_json_text(R"({"op": "allreduce", "bytes": 1e6, "ranks": 1})"); });
    CHECK(ranks.msg().id == "collective.ranks_below_two");
    CHECK(std::string(ranks.what()) == "ranks: 1 must be at least 2: a collective needs a peer");

    schedule_request q;
    q.kind = schedule_kind::dualpipev;
    q.ranks = 4;
    q.microbatches = 7;
    const input_error few = tool_error_of([&] { generate_schedule(q); });
    CHECK(few.msg().id == "schedule.microbatches_too_few");
    CHECK(std::string(few.what()) == "microbatches: dualpipev needs m ≥ 2·ranks = 8 micro-batches, got 7");
    CHECK(english(few.msg()) == few.reason());
}

TEST_CASE("scenario input errors carry their message id beside the unchanged English reason", "[messages]") {
    const auto error_of = [](const char* text) -> input_error {
        try {
            parse_scenario_text(text);
        } catch (const input_error& e) {
            return e;
        }
        FAIL("no input_error for " << text);
        throw std::logic_error("unreachable");
    };
    struct row {
        const char* doc;
        const char* path;
        const char* id;
        const char* reason;
    };
    // The English reasons are the texts the parser gave before the messages (tests/cli/cli_errors.sh).
    const row rows[] = {
        {R"({"parallel": {"tp": 0}})", "parallel.tp", "input.out_of_range", "0 is out of range [1, 4096]"},
        {R"({"model": "llama3-8c"})", "model", "preset.unknown_model_near", "unknown model preset \"llama3-8c\"; did you mean llama3-8b?"},
        {R"({"parallel": {"tp": 2.5}})", "parallel.tp", "input.expected_integer", "expected an integer, got 2.5"},
        {R"({"parallel": {"tp": "8"}})", "parallel.tp", "input.expected_integer", "expected an integer, got a string"},
        {R"({"parallel": {"tq": 2}})", "parallel.tq", "input.unknown_field_near", "unknown field; did you mean tp?"},
        {R"({"model": "llama3-8b", "parallel": {"tp": 12}})", "parallel.tp", "input.does_not_divide", "12 does not divide model.heads = 32"},
    };
    for (const auto& r : rows) {
        const input_error e = error_of(r.doc);
        INFO(r.doc);
        CHECK(e.path() == r.path);
        CHECK(e.msg().id == r.id);
        CHECK(e.reason() == r.reason);
        CHECK(english(e.msg()) == e.reason());
    }
    CHECK(error_of(R"({"model": "llama3-8c"})").msg().args == message_args{{"name", "llama3-8c"}, {"near", "llama3-8b"}});
}
