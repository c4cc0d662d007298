// The one schedule precondition check (schedule_rules.hpp): the scenario rules and `tslab schedule`
// accept and refuse the same (schedule, p, m, vpp), with the same reason, and a report never falls
// back to closed forms for a request the generator refuses.
#include <catch2/catch.hpp>

#include "tslab/errors.hpp"
#include "tslab/global_batch.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/report.hpp"
#include "tslab/schedule_rules.hpp"

using namespace tslab;

namespace {

std::string schedule_error(schedule_kind k, std::int64_t p, std::int64_t m, std::int64_t v) {
    schedule_request q;
    q.kind = k, q.ranks = p, q.microbatches = m, q.vpp = v;
    try {
        generate_schedule(q);
    } catch (const input_error& e) {
        return e.reason();
    }
    return "";
}

// A 64-layer model with dp = 1, micro_batch = 1: m is the global batch.
json scenario_doc(schedule_kind k, std::int64_t p, std::int64_t m, std::int64_t v) {
    return json{{"model", {{"preset", "gpt-1.7b"}, {"layers", 64}}},
                {"parallel", {{"pp", p}, {"vpp", v}}},
                {"training", {{"schedule", to_string(k)}, {"global_batch", m}}}};
}

std::string scenario_error(schedule_kind k, std::int64_t p, std::int64_t m, std::int64_t v) {
    try {
        parse_scenario(scenario_doc(k, p, m, v));
    } catch (const input_error& e) {
        return e.reason();
    }
    return "";
}

}  // namespace

TEST_CASE("regression: DualPipe with 9 micro-batches is refused by the scenario as by `tslab schedule`", "[schedule_rules]") {
    // deepseek-ai/DualPipe dualpipe.py step(): assert num_chunks % 2 == 0 (half the micro-batches enter at each end).
    const std::string want = "DualPipe splits the micro-batches between its two directions, so m must be even, got 9";
    CHECK(want == schedule_error(schedule_kind::dualpipe, 4, 9, 1));
    CHECK(want == scenario_error(schedule_kind::dualpipe, 4, 9, 1));
    CHECK_THROWS_AS(build_report(parse_scenario_text(R"({"parallel": {"pp": 4}, "training": {"schedule": "dualpipe", "global_batch": 9}})")),
                    input_error);
    // DualPipeV (dualpipev.py) has no parity rule: 9 ≥ 2·4 micro-batches are simulated.
    const report r = build_report(parse_scenario(scenario_doc(schedule_kind::dualpipev, 4, 9, 1)));
    CHECK(r.timing.simulated);
}

TEST_CASE("scenario rules and the schedule generator accept and refuse the same requests", "[schedule_rules]") {
    std::int64_t refused = 0, accepted = 0;
    for (const schedule_desc& d : schedule_rows)
        for (std::int64_t p = 1; p <= 8; ++p)
            for (std::int64_t m = 1; m <= 20; ++m)
                for (std::int64_t v = 1; v <= 3; ++v) {
                    if (p * v * 2 > 64) continue;  // the layer rule is the scenario's own
                    INFO(d.name << " p=" << p << " m=" << m << " v=" << v);
                    const std::string sched = schedule_error(d.kind, p, m, v), scen = scenario_error(d.kind, p, m, v);
                    const bool ok = broken_schedule_rule(d.kind, p, m, v) == schedule_rule::ok;
                    CHECK(sched.empty() == ok);
                    CHECK(scen.empty() == ok);
                    // Same rule, same words; only the names of the ranks differ (ranks vs pp).
                    if (!ok) CHECK(explain_schedule_rule(broken_schedule_rule(d.kind, p, m, v), d.kind, p, m, v, scenario_paths).reason == scen);
                    (ok ? accepted : refused)++;
                }
    CHECK(accepted > 500);
    CHECK(refused > 500);
}

TEST_CASE("each broken rule names its path in the scenario and in the schedule spec", "[schedule_rules]") {
    struct row {
        schedule_kind kind;
        std::int64_t p, m, v;
        schedule_rule rule;
        const char *spec_path, *scenario_path;
    };
    const row rows[] = {
        {schedule_kind::zbv, 1, 8, 1, schedule_rule::one_stage, "schedule", "training.schedule"},
        {schedule_kind::one_f_one_b, 4, 8, 2, schedule_rule::vpp_unused, "vpp", "parallel.vpp"},
        {schedule_kind::interleaved, 4, 8, 1, schedule_rule::vpp_needed, "vpp", "parallel.vpp"},
        {schedule_kind::interleaved, 4, 8, 256, schedule_rule::vpp_max, "vpp", "parallel.vpp"},
        {schedule_kind::dualpipe, 3, 12, 1, schedule_rule::ranks_multiple, "ranks", "parallel.pp"},
        {schedule_kind::interleaved, 4, 6, 2, schedule_rule::microbatches_multiple, "microbatches", "training.global_batch"},
        {schedule_kind::dualpipe, 4, 9, 1, schedule_rule::microbatches_even, "microbatches", "training.global_batch"},
        {schedule_kind::dualpipev, 4, 7, 1, schedule_rule::microbatches_per_rank, "microbatches", "training.global_batch"},
    };
    for (const auto& r : rows) {
        INFO(to_string(r.kind) << " p=" << r.p << " m=" << r.m << " v=" << r.v);
        CHECK(r.rule == broken_schedule_rule(r.kind, r.p, r.m, r.v));
        CHECK(std::string(r.spec_path) == explain_schedule_rule(r.rule, r.kind, r.p, r.m, r.v, spec_paths).path);
        CHECK(std::string(r.scenario_path) == explain_schedule_rule(r.rule, r.kind, r.p, r.m, r.v, scenario_paths).path);
    }
    CHECK_THROWS_WITH(check_schedule_preconditions(schedule_kind::dualpipev, 4, 7, 1, spec_paths),
                      "microbatches: dualpipev needs m ≥ 2·ranks = 8 micro-batches, got 7");
}

TEST_CASE("smallest_valid_microbatches: the least m' >= m every micro-batch rule of the row accepts", "[schedule_rules]") {
    for (const auto& d : schedule_rows)
        for (std::int64_t p : {2, 3, 4, 6, 16})
            for (std::int64_t m : {1, 5, 9, 31, 64}) {
                INFO(d.name << " p=" << p << " m=" << m);
                const std::int64_t vpp = d.chunks == chunks_rule::vpp ? 2 : 1;
                const std::int64_t fit = smallest_valid_microbatches(d.kind, p, m);
                if (p < d.min_pp || p % d.pp_multiple != 0) {
                    CHECK(fit == m);
                    continue;
                }
                CHECK(fit >= m);
                CHECK(broken_schedule_rule(d.kind, p, fit, vpp) == schedule_rule::ok);
                for (std::int64_t below = m; below < fit; ++below)  // nothing smaller passes
                    CHECK(broken_schedule_rule(d.kind, p, below, vpp) != schedule_rule::ok);
            }
}

TEST_CASE("the auto batch keeps DualPipe's rule: DeepSeek-V3 on DP 64 x PP 16 without a global batch", "[schedule_rules]") {
    // 2^22 tokens / 4096 = 1024 sequences = 16 micro-batches per pipeline at dp 64, but DualPipe
    // needs m >= 2·16 = 32 (deepseek-ai/DualPipe dualpipe.py): the default goes up to 32·64 = 2048.
    const scenario s = parse_scenario_text(R"({"model": "deepseek-v3", "cluster": "hgx-h800",
        "parallel": {"dp": 64, "pp": 16, "ep": 64}, "training": {"seq_len": 4096, "schedule": "dualpipe"}})");
    CHECK(s.training.global_batch == 2048);
    CHECK_FALSE(s.training.global_batch_given);
    const std::string rule = auto_global_batch_rule(s.parallel.world(), 4096, 64, schedule_kind::dualpipe, 16);
    CHECK(rule.find("32 micro-batches per pipeline for DualPipe") != std::string::npos);
    // The same rule as registered messages (the lab words them in zh-CN): the token floor, then the schedule's raise.
    const std::vector<message> said = auto_global_batch_rule_msg(s.parallel.world(), 4096, 64, schedule_kind::dualpipe, 16);
    REQUIRE(said.size() == 2);
    CHECK(said[0].id == "batch.auto");
    CHECK(said[1].id == "batch.auto_schedule");
    CHECK(said[1].args == message_args{{"microbatches", "32"}, {"schedule", "DualPipe"}, {"rule", "m even, m ≥ 2p"}, {"batch", "2048"}});
    CHECK(global_batch_rule_text(said) == rule);
    // Without the schedule's raise (1F1B accepts 16 micro-batches), one clause.
    CHECK(auto_global_batch_rule_msg(s.parallel.world(), 4096, 64).size() == 1);
}
