// The planner: exhaustive against a brute force over parsed scenarios, Pareto property, the cap,
// nothing-fits, and the resumable search.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>

#include "tslab/errors.hpp"
#include "tslab/global_batch.hpp"
#include "tslab/planner.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

// A clock that moves 1 ms at every read (plan_options::clock): the search reads it between layouts
// and before each plan it times in full, so a deadline N ms away is N reads, on a loaded machine as
// on an idle one.
struct tick_clock {
    std::shared_ptr<std::atomic<std::int64_t>> reads = std::make_shared<std::atomic<std::int64_t>>(0);
    plan_time operator()() const { return plan_time{} + std::chrono::milliseconds(++*reads); }
};

const char* small = R"({"model": "gpt-1.7b", "cluster": "dgx-a100-80gb", "parallel": {"dp": 8},
    "training": {"seq_len": 2048, "global_batch": 16}})";

struct brute {
    std::int64_t valid = 0;
    struct plan {
        double time_s, memory;
        std::int64_t dp, tp, pp, cp;
    };
    std::vector<plan> fitting;  // sorted by (time, memory)
};

// Every combination of the planner's knobs, each parsed by the scenario parser (rules included)
// and timed by the full report: the planner must find the same valid count and the same best times.
// Sequence parallelism and the chunked TP overlap are on wherever tp > 1 (the planner's dominance
// rules); every CP method where cp > 1; vpp only where it cuts a stage's layers into equal chunks.
brute brute_force(std::int64_t gpus, std::int64_t global_batch) {
    brute b;
    const char* schedules[] = {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "zbv", "dualpipe", "dualpipev"};
    for (std::int64_t tp = 1; tp <= gpus; ++tp)
        for (std::int64_t pp = 1; pp <= gpus; ++pp)
            for (std::int64_t cp = 1; cp <= gpus; ++cp) {
                if (gpus % (tp * pp * cp) != 0) continue;
                const std::int64_t dp = gpus / (tp * pp * cp);
                for (const auto& method : cp_method_rows) {
                    if (cp == 1 && std::string(method.name) != cp_method_rows[0].name) continue;
                    for (std::int64_t mb = 1; mb <= global_batch; ++mb)
                        for (const char* rec : {"none", "op", "selective", "full"})
                            for (const char* sched : schedules)
                                for (std::int64_t v = 1; v <= 24; ++v)
                                    for (int z = 0; z <= 3; ++z) {
                                        if ((v > 1) != (std::string(sched) == "interleaved")) continue;
                                        if (v > 1 && ((24 + pp - 1) / pp) % v != 0) continue;  // equal chunks of the 24 layers only
                                        json doc = {{"model", "gpt-1.7b"},
                                                    {"cluster", "dgx-a100-80gb"},
                                                    {"parallel",
                                                     {{"dp", dp},
                                                      {"tp", tp},
                                                      {"pp", pp},
                                                      {"cp", cp},
                                                      {"vpp", v},
                                                      {"zero", z},
                                                      {"sp", tp > 1},
                                                      {"cp_method", method.name}}},
                                                    {"training",
                                                     {{"seq_len", 2048},
                                                      {"global_batch", global_batch},
                                                      {"micro_batch", mb},
                                                      {"recompute", rec},
                                                      {"schedule", sched},
                                                      {"overlap", {{"tp_comm", tp > 1}}}}}};
                                        scenario s;
                                        try {
                                            s = parse_scenario(doc);
                                        } catch (const input_error&) {
                                            continue;
                                        }
                                        ++b.valid;
                                        const report r = build_report(s, 0);
                                        if (r.memory.fits) b.fitting.push_back({r.step.time_s, r.memory.total_bytes, dp, tp, pp, cp});
                                    }
                }
            }
    std::sort(b.fitting.begin(), b.fitting.end(),
              [](const brute::plan& x, const brute::plan& y) { return std::tie(x.time_s, x.memory) < std::tie(y.time_s, y.memory); });
    return b;
}

}  // namespace

TEST_CASE("exhaustive on 8 GPUs: the planner evaluates exactly the valid plans and finds the fastest", "[planner]") {
    plan_options o;
    o.top = 5;
    const plan_result r = run_plan(parse_scenario_text(small), o);
    const brute b = brute_force(8, 16);
    CHECK(r.progress.done);
    CHECK_FALSE(r.progress.capped);
    CHECK(r.progress.evaluated == b.valid);
    CHECK(r.progress.fitting == static_cast<std::int64_t>(b.fitting.size()));
    // The top lists the fastest plan of each of the fastest distinct layouts (dp, tp, pp, cp).
    std::vector<brute::plan> distinct;
    for (const auto& p : b.fitting)
        if (std::none_of(distinct.begin(), distinct.end(),
                         [&](const brute::plan& d) { return d.dp == p.dp && d.tp == p.tp && d.pp == p.pp && d.cp == p.cp; }))
            distinct.push_back(p);
    REQUIRE(r.top.size() == 5);
    for (std::size_t i = 0; i < r.top.size(); ++i) {
        CHECK(r.top[i].time_s == Approx(distinct[i].time_s).epsilon(1e-9));
        CHECK(r.top[i].memory_bytes == Approx(distinct[i].memory).epsilon(1e-9));
        CHECK(r.top[i].choice.tp == distinct[i].tp);
        CHECK(r.top[i].choice.cp == distinct[i].cp);
    }
    CHECK(r.message.empty());
    CHECK(r.top[0].ledgers.size() == 9);
    CHECK_FALSE(r.top[0].bottleneck.empty());
}

TEST_CASE("Pareto front: sorted by memory, no member dominated, every fitting top plan dominated by one", "[planner]") {
    const plan_result r = run_plan(parse_scenario_text(small), {});
    REQUIRE(r.pareto.size() >= 1);
    for (std::size_t i = 1; i < r.pareto.size(); ++i) {
        CHECK(r.pareto[i - 1].memory_bytes < r.pareto[i].memory_bytes);
        CHECK(r.pareto[i - 1].time_s > r.pareto[i].time_s);
    }
    for (const auto& e : r.top) {
        const bool covered = std::any_of(r.pareto.begin(), r.pareto.end(), [&](const plan_entry& f) {
            return f.memory_bytes <= e.memory_bytes * (1 + 1e-9) && f.time_s <= e.time_s * (1 + 1e-9);
        });
        CHECK(covered);
    }
}

TEST_CASE("cap: the search stops with a partial result and says so", "[planner]") {
    plan_options o;
    o.max_candidates = 10;
    const plan_result r = run_plan(parse_scenario_text(small), o);
    CHECK(r.progress.capped);
    CHECK(r.progress.evaluated >= 10);
    CHECK(r.progress.groups_done < r.progress.groups_total);
    CHECK_THAT(r.message, Catch::Contains("search capped at"));
    CHECK_THAT(r.message, Catch::Contains("the result is partial"));
    CHECK(plan_to_json(r)["complete"] == false);
}

TEST_CASE("nothing fits: the closest plan and by how much it misses", "[planner]") {
    const plan_result r = run_plan(parse_scenario_text(R"({"model": "gpt-1t", "parallel": {"dp": 8}, "training": {"global_batch": 8}})"), {});
    CHECK(r.progress.fitting == 0);
    CHECK(r.top.empty());
    REQUIRE(r.closest.has_value());
    CHECK(r.closest->headroom_bytes < 0);
    CHECK_THAT(r.message, Catch::Contains("no plan fits in HBM; the closest"));
    CHECK_THAT(r.message, Catch::Contains("GiB over the"));
    // The capacity named is one A100 80GB (the default cluster): 80 GiB, memory + headroom.
    CHECK_THAT(r.message, Catch::EndsWith("over the 80.00 GiB capacity"));
}

TEST_CASE("resumable: small slices give the same result as one run — options are strict", "[planner]") {
    const scenario s = parse_scenario_text(small);
    plan_search search(s, {});
    int slices = 0;
    while (!search.advance(50)) ++slices;
    CHECK(slices > 2);
    const plan_result a = search.result(), b = run_plan(s, {});
    CHECK(a.progress.evaluated == b.progress.evaluated);
    REQUIRE(a.top.size() == b.top.size());
    CHECK(a.top[0].time_s == b.top[0].time_s);
    CHECK_THROWS_WITH(parse_plan_options(json{{"top", 0}}), Catch::Contains("options.top: 0 is out of range"));
    CHECK_THROWS_WITH(parse_plan_options(json{{"gpu", 8}}), Catch::Contains("options.gpu: unknown field; did you mean gpus?"));
    // The text ends inside a value: json_parse.cpp words that "truncated JSON at byte N".
    CHECK_THROWS_WITH(plan_json_text(small, "{\"top\":"), Catch::StartsWith("options: ") && Catch::Contains("JSON at byte 8"));
}

TEST_CASE("planner: without training.global_batch it ranks for the auto rule (>= 4M tokens, >= 1 sequence per GPU)", "[planner]") {
    // 2^22 tokens (Llama 3's initial batch, arXiv 2407.21783 section 3.4.1) / seq_len, at least the
    // GPU count, rounded up to a power of two, then to a multiple of micro_batch × dp.
    CHECK(auto_global_batch(64, 2048, 1) == 2048);  // 4M / 2048
    CHECK(auto_global_batch(100, 8192, 1) == 512);  // 4M / 8192 = 512 ≥ 100
    CHECK(auto_global_batch(3000, 4096, 1) == 4096);  // 1024 < 3000 → 4096
    CHECK(auto_global_batch(8, 3000, 1) == 2048);  // ceil(4194304 / 3000) = 1399 → 2048
    CHECK(auto_global_batch(96, 4096, 96) == 1056);  // 1024, then the next multiple of dp = 96
    plan_options o;
    o.gpus = 8;
    o.top = 1;
    const plan_result dflt = run_plan(parse_scenario_text(R"({"model": "gpt-1.7b", "training": {"seq_len": 2048}})"), o);
    CHECK(dflt.global_batch == 2048);
    CHECK(dflt.global_batch_default);
    CHECK(dflt.seq_len == 2048);
    const plan_result given = run_plan(parse_scenario_text(R"({"model": "gpt-1.7b", "training": {"seq_len": 2048, "global_batch": 2}})"), o);
    CHECK(given.global_batch == 2);
    CHECK_FALSE(given.global_batch_default);
    const json j = plan_to_json(dflt);
    CHECK(j["global_batch"] == 2048);
    CHECK(j["seq_len"] == 2048);
    CHECK(j["global_batch_source"] == "auto");
    CHECK_THAT(j["global_batch_rule"].get<std::string>(), Catch::StartsWith("auto: max(2^22 tokens"));
    CHECK(plan_to_json(given)["global_batch_source"] == "given");
}

TEST_CASE("planner and report share one auto global batch on the scenario's own GPU count", "[planner]") {
    // 96 GPUs at dp 96: the power of two 1024 is no multiple of dp, so the rule rounds to 1056; the
    // planner ranks that batch (the scenario's own layout among its candidates), as the report does.
    const scenario s = parse_scenario_text(R"({"model": "gpt-1.7b", "cluster": "dgx-a100-80gb", "parallel": {"dp": 96},
        "training": {"seq_len": 4096}})");
    CHECK(s.training.global_batch == 1056);
    plan_options o;
    o.top = 1;
    o.max_candidates = 1;
    CHECK(run_plan(s, o).global_batch == 1056);
}

TEST_CASE("the planner caps its GPUs before searching and stops at its time budget with a partial result", "[planner]") {
    // Issue 15, finding 3: --gpus 1048576 ran for minutes.
    const std::string s = R"({"model":"llama3-8b"})";
    CHECK_THROWS_WITH(plan_json_text(s, R"({"gpus":1048576})"), "options.gpus: 1048576 is out of range [0, 65536]");
    CHECK_THROWS_WITH(plan_json_text(R"({"parallel":{"dp":131072}})", ""), Catch::Contains("over the limit of 65536"));
    int calls = 0;
    plan_options o;
    o.gpus = 65536;
    o.max_seconds = 0.05;  // 50 reads of the tick clock: far fewer than the search's ~36k layouts
    o.clock = tick_clock{};
    const plan_result r = run_plan(parse_scenario_text(R"({"model":"kimi-k2"})"), o, [&](const plan_progress&, double) { ++calls; });
    CHECK(r.progress.capped);
    CHECK_THAT(r.message, Catch::Contains("options.max_seconds") && Catch::Contains("the result is partial"));
    CHECK(plan_to_json(r)["complete"] == false);
    CHECK_THROWS_WITH(parse_plan_options_text(R"({"max_seconds":0})"), Catch::StartsWith("options.max_seconds"));
}

TEST_CASE("a deadline stops the search inside a layout, not after it, and one already passed starts nothing", "[planner]") {
    // A fuzzer finding: on 8 GPUs, Llama 3 8B at seq_len 2047 (global batch 4096) has a layout that
    // times ~3,900 plans (~5 s under ASan), so a 0.2 s budget tested only between layouts ran 10 s.
    const scenario s = parse_scenario_text(R"({"model":"llama3-8b","cluster":"dgx-h100","parallel":{"dp":16},"training":{"seq_len":2047}})");
    plan_options o;
    o.gpus = 8;
    const tick_clock ticks;
    o.clock = ticks;
    const auto in_reads = [&](int n) { return ticks() + std::chrono::milliseconds(n); };
    plan_search idle(s, o);
    CHECK_FALSE(idle.advance(1'000'000, ticks() - std::chrono::seconds(1)));  // passed: not over, nothing searched
    CHECK(idle.progress().considered == 0);
    CHECK(idle.progress().groups_done == 0);
    // One layout per call, each given 50 reads of the clock: the layouts that time fewer plans end
    // inside them, and the first that times more (the heaviest times ~3,900) is cut at its 50th
    // timing, which ends the search short of done.
    plan_search search(s, o);
    bool over = false;
    for (int calls = 0; !over && calls < 1000; ++calls) over = search.advance(1, in_reads(50));
    REQUIRE(over);
    const plan_progress cut = search.progress();
    CHECK_FALSE(cut.done);
    CHECK(cut.groups_done < cut.groups_total);
    CHECK(cut.timed > 0);
    CHECK(search.advance(1'000'000));  // stopped for good: nothing more is searched
    CHECK(search.progress().considered == cut.considered);
    CHECK(search.progress().groups_done == cut.groups_done);
    CHECK_FALSE(search.result().top.empty());  // what the cut layouts found is kept
}

TEST_CASE("the time budget covers building the result: Pareto plans past it keep the search's time and say so", "[planner]") {
    // simulate_ops 0: the search times every schedule by its closed form, so every Pareto member is
    // one the report would re-time by simulation (front_entry).
    const scenario s = parse_scenario_text(small);
    plan_options o;
    o.simulate_ops = 0;
    plan_search search(s, o);
    while (!search.advance(1'000'000)) {}
    const plan_result timed = search.result(), out = search.result(0);
    REQUIRE(!timed.pareto.empty());
    REQUIRE(timed.pareto.size() == out.pareto.size());
    for (std::size_t i = 0; i < out.pareto.size(); ++i) {
        CHECK(timed.pareto[i].time_from_report);
        CHECK_FALSE(out.pareto[i].time_from_report);
        CHECK(out.pareto[i].scenario == timed.pareto[i].scenario);  // the plan is the same; only its time's source differs
    }
    const json j = plan_to_json(out);
    CHECK(j["pareto"][0]["time_from"] == "search");
    CHECK(plan_to_json(timed)["pareto"][0]["time_from"] == "report");
}
