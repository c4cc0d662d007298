// The simulator against closed forms: 1F1B and interleaved bubbles (Narayanan et al. arXiv 2104.04473),
// the DualPipe README table (deepseek-ai/DualPipe README, "Pipeline Bubbles and Memory Usage
// Comparison"), a single micro-batch's critical path with p2p delay, and bad input.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <set>

#include "tslab/errors.hpp"
#include "tslab/pipeline_sim.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/schedule_io.hpp"
#include "tslab/schedule_table.hpp"

using namespace tslab;

namespace {

schedule_run run(schedule_kind k, std::int64_t p, std::int64_t m, pipeline_costs c, std::int64_t v = 1) {
    schedule_spec spec;
    spec.request.kind = k;
    spec.request.ranks = p;
    spec.request.microbatches = m;
    spec.request.vpp = v;
    spec.costs = c;
    return run_schedule(spec);
}

// Idle time of the most idle rank: makespan − busy.
double bubble(const schedule_run& r) {
    double idle = 0;
    for (const auto& x : r.timeline.ranks) idle = std::max(idle, r.timeline.makespan_s - x.busy_s);
    return idle;
}

std::int64_t peak(const schedule_run& r) {
    std::int64_t p = 0;
    for (const auto& x : r.timeline.ranks) p = std::max(p, x.peak_inflight);
    return p;
}

pipeline_costs costs(double F, double B, double W = 0, double FB = -1) {
    pipeline_costs c;
    c.F = F, c.B = B, c.W = W, c.FB = FB;
    return c;
}

}  // namespace

TEST_CASE("1F1B idles (p − 1)(F + B) on every rank, rank 0 holds min(p, m)") {
    for (std::int64_t p : {1, 2, 3, 4, 8, 16})
        for (std::int64_t m : {1, 2, 5, 8, 32})
            for (auto [F, B] : {std::pair{1.0, 2.0}, {1.0, 1.0}, {0.3, 1.7}, {2.0, 1.0}}) {
                INFO("p=" << p << " m=" << m << " F=" << F << " B=" << B);
                const auto r = run(schedule_kind::one_f_one_b, p, m, costs(F, B));
                CHECK(bubble(r) == Approx((p - 1) * (F + B)).margin(1e-9));
                CHECK(r.timeline.makespan_s == Approx(m * (F + B) + (p - 1) * (F + B)));
                CHECK(r.timeline.ranks[0].peak_inflight == std::min(p, m));
                CHECK(r.timeline.bubble_fraction == Approx((p - 1.0) / (m + p - 1.0)));  // (p−1)/(m+p−1)
            }
}

TEST_CASE("interleaved idles (p − 1)(F + B)/v with F, B the per-stage costs") {
    for (std::int64_t p : {2, 4, 8})
        for (std::int64_t v : {2, 3, 4})
            for (std::int64_t mult : {1, 2, 4})
                for (auto [F, B] : {std::pair{1.0, 2.0}, {1.0, 1.0}, {2.0, 1.0}, {1.0, 3.0}}) {
                    const std::int64_t m = mult * p;
                    INFO("p=" << p << " v=" << v << " m=" << m << " F=" << F << " B=" << B);
                    // a chunk holds 1/v of a stage, so each chunk-op costs F/v, B/v
                    const auto r = run(schedule_kind::interleaved, p, m, costs(F / v, B / v), v);
                    CHECK(bubble(r) == Approx((p - 1) * (F + B) / v).margin(1e-9));
                }
}

TEST_CASE("interleaved with m close to p: the bubble stays (p − 1)(F + B)/v and P2P exposes 2(pv − 1) hops") {
    // Narayanan et al. arXiv 2104.04473 section 2.2.2: the interleaved bubble is (p − 1)/v of a
    // stage's F + B at any m that is a multiple of p (the Megatron-LM schedule needs m % p = 0, and the
    // parser refuses other m). With each transfer run beside the next chunk's compute (Megatron's
    // overlapped P2P), only the fill and the drain wait for theirs: the first micro-batch crosses the
    // pv − 1 chunk boundaries of the forward, the last one those of the backward, whatever m is.
    for (std::int64_t p : {2, 4, 8})
        for (std::int64_t v : {2, 3})
            for (std::int64_t m : {p, 2 * p, 3 * p}) {  // m = p and m < 2p are the cases at issue
                INFO("p=" << p << " v=" << v << " m=" << m);
                const double F = 1.0 / v, B = 2.0 / v, hop = 0.01;
                pipeline_costs c = costs(F, B);
                const auto free = run(schedule_kind::interleaved, p, m, c, v);
                c.p2p_s = hop;
                const auto paid = run(schedule_kind::interleaved, p, m, c, v);
                CHECK(bubble(free) == Approx((p - 1) * (F + B)).margin(1e-9));
                CHECK(paid.timeline.makespan_s - free.timeline.makespan_s == Approx(2 * (p * v - 1) * hop).margin(1e-9));
            }
}

// The README's formulas describe its figure, whose cells draw the input-gradient part of B
// (I = B − W) as wide as F and W no wider: the grid keeps B = F + W with W ≤ F and varies the rest.
// Off that line the simulated bubble departs from the table and the simulation is the authority.
TEST_CASE("DualPipe README table: bubble, parameters and activations per device") {
    for (std::int64_t PP : {2, 4, 6, 8, 16})
        for (std::int64_t mult : {2, 3, 5})
            for (double F : {1.0, 2.0})
                for (double w_share : {0.0, 0.5, 1.0})
                    for (double overlap : {0.0, 0.5, 1.0}) {
                        const double W = w_share * F, B = F + W;
                        const double FB = std::max(F, B) + overlap * std::min(F, B);  // F&B between max(F,B) and F+B
                        const std::int64_t m = mult * PP;
                        INFO("PP=" << PP << " m=" << m << " F=" << F << " B=" << B << " W=" << W << " F&B=" << FB);
                        const auto c = costs(F, B, W, FB);

                        const auto f1b = run(schedule_kind::one_f_one_b, PP, m, c);  // row 1F1B
                        CHECK(bubble(f1b) == Approx((PP - 1) * (F + B)).margin(1e-9));
                        CHECK(f1b.schedule.stage_params_per_device == 1);
                        CHECK(peak(f1b) == PP);

                        const auto zb = run(schedule_kind::zb_h1, PP, m, c);  // row ZB1P
                        CHECK(bubble(zb) == Approx((PP - 1) * (F + B - 2 * W)).margin(1e-9));
                        CHECK(zb.schedule.stage_params_per_device == 1);
                        CHECK(peak(zb) == PP);

                        const auto dp = run(schedule_kind::dualpipe, PP, m, c);  // row DualPipe, PP devices
                        CHECK(bubble(dp) == Approx((PP / 2 - 1) * (FB + B - 3 * W)).margin(1e-9));
                        CHECK(dp.schedule.stage_params_per_device == 2);
                        CHECK(dp.timeline.param_copies == 2);
                        CHECK(peak(dp) == PP + 1);

                        if (PP >= 4) {  // row DualPipeV: PP stages on PP/2 ≥ 2 devices (min_pp)
                            const auto dv = run(schedule_kind::dualpipev, PP / 2, m, c);
                            CHECK(dv.timeline.ranks.size() == static_cast<std::size_t>(PP / 2));
                            CHECK(bubble(dv) == Approx((PP / 2 - 1) * (FB + B - 3 * W)).margin(1e-9));
                            CHECK(dv.schedule.stage_params_per_device == 2);
                            CHECK(peak(dv) == PP + 1);
                        }
                    }
}

TEST_CASE("one micro-batch crosses p − 1 links each way: makespan p(F + B) + 2(p − 1)·p2p") {
    for (auto k : {schedule_kind::gpipe, schedule_kind::one_f_one_b})
        for (std::int64_t p : {1, 2, 5})
            for (double d : {0.0, 0.25, 1.0}) {
                auto c = costs(1.0, 2.0);
                c.p2p_s = d;
                const auto r = run(k, p, 1, c);
                CHECK(r.timeline.makespan_s == Approx(p * 3.0 + 2 * (p - 1) * d));
            }
}

TEST_CASE("timeline: ops never overlap on a rank and last as long as their cost") {
    const auto c = costs(1.0, 2.0, 0.5, 2.5);
    const auto r = run(schedule_kind::dualpipe, 4, 8, c);
    for (std::size_t rank = 0; rank < r.timeline.times.size(); ++rank) {
        double prev_end = 0;
        for (std::size_t i = 0; i < r.timeline.times[rank].size(); ++i) {
            const auto& t = r.timeline.times[rank][i];
            CHECK(t.start_s >= prev_end - 1e-12);
            prev_end = t.end_s;
            const op_kind k = r.schedule.rank_ops[rank][i].kind;
            const double want = k == op_kind::F ? 1.0 : k == op_kind::B ? 2.0 : k == op_kind::I ? 1.5 : k == op_kind::W ? 0.5 : 2.5;
            CHECK(t.end_s - t.start_s == Approx(want));
        }
    }
}

TEST_CASE("bad costs give input errors that name the field") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(check_costs(costs(nan, 2)), Catch::Contains("costs.F: must be a finite number"));
    CHECK_THROWS_WITH(check_costs(costs(1, -2)), Catch::Contains("costs.B: must be ≥ 0"));
    CHECK_THROWS_WITH(check_costs(costs(1, 2, 3)), Catch::Contains("costs.W"));
    CHECK_THROWS_WITH(check_costs(costs(1, 2, 1, 3.5)), Catch::Contains("costs.FB: an overlapped pair FB = 3.5 cannot exceed F + B = 3"));
    CHECK_THROWS_WITH(check_costs(costs(1, 2, 1, 1.5)), Catch::Contains("shorter than max(F, B)"));
}

TEST_CASE("schedule SPEC errors: unknown names with a suggestion, zero counts, unknown fields, m = 1e9") {
    auto err = [](const std::string& text) -> std::string {
        try {
            schedule_json_text(text);
        } catch (const input_error& e) {
            return e.what();
        }
        return "";
    };
    CHECK_THAT(err(R"({"schedule": "dualpipe-v"})"), Catch::Contains("did you mean dualpipev?"));
    CHECK_THAT(err(R"({"schedule": "1f1b", "ranks": 0})"), Catch::Contains("ranks: 0 is out of range"));
    CHECK_THAT(err(R"({"schedule": "1f1b", "microbatches": -4})"), Catch::Contains("microbatches: -4 is out of range"));
    CHECK_THAT(err(R"({"schedule": "1f1b", "costs": {"F": 1, "B": 2, "FB": 4}})"), Catch::Contains("costs.FB"));
    CHECK_THAT(err(R"({"schedule": "1f1b", "costs": {"f": 1}})"), Catch::Contains("costs.f: unknown field; did you mean F?"));
    CHECK_THAT(err(R"({"schedule": "dualpipev", "ranks": 64, "microbatches": 1000000000})"), Catch::Contains("cap of 2000000 ops"));
    CHECK_THAT(err("{not json"), Catch::Contains("$: malformed JSON at byte 3"));
}

TEST_CASE("schedule JSON carries the contract's fields") {
    const json j = json::parse(schedule_json_text(R"({"schedule": "dualpipe", "ranks": 4, "microbatches": 8,
        "costs": {"F": 1, "B": 2, "W": 1, "FB": 3}, "p2p_s": 0})"));
    for (const char* key : {"makespan_s", "bubble_fraction", "param_copies", "ranks", "ops"}) CHECK(j.contains(key));
    CHECK(j["ranks"].size() == 4);
    CHECK(j["ranks"][0].contains("span_s"));
    CHECK(j["ranks"][0]["peak_inflight"] == 5);  // PP + 1 (README)
    CHECK(j["ops"][0]["kind"] == "F");
    CHECK(j["ops"].size() == j["op_count"].get<std::size_t>());
    // 1F1B bubble fraction (p−1)/(m+p−1) (Narayanan et al. section 2.2 with equal stage times)
    const json k = json::parse(schedule_json_text(R"({"schedule": "1f1b", "ranks": 4, "microbatches": 12, "timeline": false})"));
    CHECK(k["bubble_fraction"].get<double>() == Approx(3.0 / 15.0));
    CHECK_FALSE(k.contains("ops"));
}

TEST_CASE("Chrome trace: parses, one named track per rank") {
    const json t = json::parse(schedule_trace_text(R"({"schedule": "interleaved", "ranks": 4, "microbatches": 8, "vpp": 2})"));
    REQUIRE(t["traceEvents"].is_array());
    std::set<std::int64_t> named, used;
    for (const auto& e : t["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "thread_name") named.insert(e["tid"].get<std::int64_t>());
        if (e["ph"] == "X") {
            used.insert(e["tid"].get<std::int64_t>());
            CHECK(e["dur"].get<double>() > 0);
        }
    }
    CHECK(named == std::set<std::int64_t>{0, 1, 2, 3});
    CHECK(used == named);
}

TEST_CASE("schedule work and listed ops are capped before any work, ZB-V padding included", "[schedule_io]") {
    // Issue 15, finding 3: ZB-V at 65536 ranks took 30-60 s (its padding to 2p - 1 micro-batches
    // escaped the op estimate); a 1F1B timeline of 2M ops was 330 MB; zb-h1 666 x 1000 took 2 GiB.
    // The refusal rests on the work estimate, counted before any op is built (no wall clock: the
    // padded ZB-V schedule's estimate is what exceeds the cap).
    CHECK(schedule_work_estimate({schedule_kind::zbv, 65536, 1}) > static_cast<double>(max_schedule_ops));
    CHECK_THROWS_WITH(schedule_json_text(R"({"schedule":"zbv","ranks":65536,"microbatches":1,"timeline":false})"),
                      Catch::StartsWith("ranks: zbv with ranks 65536") && Catch::Contains("over the cap of 2000000 ops"));
    CHECK_THROWS_WITH(schedule_json_text(R"({"schedule":"1f1b","ranks":1,"microbatches":1000000})"),
                      Catch::StartsWith("timeline: ") && Catch::Contains("over the cap of 100000 listed ops"));
    CHECK_THROWS_WITH(schedule_json_text(R"({"schedule":"zb-h1","ranks":666,"microbatches":1000})"), Catch::StartsWith("timeline: "));
    CHECK_THROWS_WITH(schedule_trace_text(R"({"schedule":"zb-h1","ranks":666,"microbatches":1000,"timeline":false})"),
                      Catch::StartsWith("$: ") && Catch::Contains("a trace lists every op"));
    CHECK(schedule_op_estimate({schedule_kind::zbv, 4, 1}) == 1 * 8 * 3);
    CHECK(schedule_work_estimate({schedule_kind::zbv, 4, 1}) == 7 * 8 * 3);
    CHECK_THROWS_WITH(schedule_json_text(R"({"ranks":1e400})"), Catch::StartsWith("ranks: the number 1e400 is out of range"));
}

TEST_CASE("one walk times both lanes: the makespan without P2P is a second walk's, bit for bit, for every schedule", "[pipeline]") {
    // time_schedule splits the bubble from the exposed P2P with the makespan at p2p_s = 0; the walk's
    // order depends only on which inputs are done, so the shadow lane must equal a walk of its own.
    const pipeline_costs costs[] = {{.F = 1, .B = 2, .W = 1, .p2p_s = 0.3},
                                    {.F = 1.7, .B = 2.9, .W = 0.4, .p2p_s = 2.5},
                                    {.F = 0.9, .B = 1.1, .W = 0.5, .FB = 1.6, .p2p_s = 0.05}};
    for (const schedule_desc& d : schedule_rows)
        for (std::int64_t p : {4, 8}) {
            const std::int64_t v = d.chunks == chunks_rule::vpp ? 2 : 1;
            const pipeline_schedule s = generate_schedule({.kind = d.kind, .ranks = p, .microbatches = 4 * p, .vpp = v});
            for (const pipeline_costs& c : costs) {
                double shadow = -1;
                const pipeline_timeline both = simulate_pipeline(s, c, &shadow);
                const pipeline_timeline with = simulate_pipeline(s, c);
                pipeline_costs free = c;
                free.p2p_s = 0;
                CHECK(shadow == simulate_pipeline(s, free).makespan_s);
                CHECK(both.makespan_s == with.makespan_s);
                CHECK(both.times[0].back().end_s == with.times[0].back().end_s);
                CHECK(shadow < with.makespan_s);  // P2P on the critical path costs something
            }
        }
}
