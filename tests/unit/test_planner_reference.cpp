// The planner's cached search against a plain per-candidate search (full memory ledger, fresh
// compute and communication estimates for every plan) on a mid-size MoE case: same counts, same
// top plans, same Pareto front, same closest miss.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <tuple>

#include "tslab/errors.hpp"
#include "tslab/memory.hpp"
#include "tslab/planner.hpp"
#include "tslab/schedule_shape.hpp"
#include "tslab/step_model.hpp"

using namespace tslab;

namespace {

using key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, int, int, std::int64_t,
                       std::size_t, double>;
key key_of(const plan_choice& c) {
    return {c.dp,
            c.tp,
            c.pp,
            c.vpp,
            c.ep,
            c.cp,
            c.micro_batch,
            c.zero,
            static_cast<int>(c.recompute),
            static_cast<int>(c.schedule),
            c.etp,
            c.cp_method,
            c.offload_optimizer};
}

struct ref_plan {
    plan_choice choice;
    double time_s = 0, memory_bytes = 0;
};

// The planner's top set from the reference's plans sorted by (time, memory), stable in search
// order: the first plan of each layout (dp, tp, pp, cp, ep), skipping any with the time and memory
// of one already taken (re-timing reorders it), until n are taken.
std::set<key> top_set(const std::vector<ref_plan>& sorted, std::size_t n) {
    std::set<key> want;
    std::vector<plan_choice> layouts;
    for (std::size_t i = 0; i < sorted.size() && want.size() < n; ++i) {
        const plan_choice& c = sorted[i].choice;
        if (std::any_of(layouts.begin(), layouts.end(), [&](const plan_choice& l) { return l.same_layout(c); })) continue;
        if (i == 0 || sorted[i].time_s != sorted[i - 1].time_s || sorted[i].memory_bytes != sorted[i - 1].memory_bytes)
            want.insert(key_of(c)), layouts.push_back(c);
    }
    return want;
}

std::set<key> top_set(const plan_result& r) {
    std::set<key> got;
    for (const auto& e : r.top) got.insert(key_of(e.choice));
    return got;
}

struct reference {
    std::int64_t evaluated = 0;
    std::vector<ref_plan> fitting, missing;
};

// Pipeline time with F = 1 then scaled, as the planner's cache does (the ratios key the cache).
pipeline_timing timed(const schedule_request& q, const pipeline_costs& c) {
    pipeline_costs unit = c;
    unit.B /= c.F, unit.W /= c.F, unit.p2p_s /= c.F, unit.FB = c.FB < 0 ? -1 : c.FB / c.F, unit.F = 1;
    pipeline_timing t = schedule_op_estimate(q) > 20'000 ? closed_form_pipeline(q, unit) : time_pipeline(q, unit);
    t.bubble_s *= c.F, t.p2p_exposed_s *= c.F;
    return t;
}

void time_fitting(const scenario& s, const mesh_layout& mesh, std::int64_t m, double memory_bytes, reference& out) {
    const compute_estimate ce = estimate_compute(s);
    const step_comm sc = step_comm_of(s, mesh, count_params(s.model), ce, m);
    const comm_inventory& comm = sc.inventory;
    const schedule_request sq = scenario_schedule_request(s, m);
    const pipeline_costs k = chunk_costs(ce, sq, pp_transfer_exposed_s(comm), sc.per_microbatch);
    const pipeline_timing t = timed(sq, k);
    const double imbalance = expert_ledger(s, {s.training.moe.imbalance, s.training.moe.redundant_experts}).imbalance_used;
    const double time = step_time_of(ce, t.bubble_s, t.p2p_exposed_s, axis_totals(comm, ep_hidden_s(sq, k)), imbalance);
    out.fitting.push_back({plan_choice_of(s), time, memory_bytes});
}

// A plan that misses HBM is tried again with the optimizer states on the host, as the planner does.
void evaluate(scenario& s, const mesh_layout& mesh, std::int64_t m, reference& out) {
    if (!plan_rules_hold(s)) return;
    ++out.evaluated;
    const auto& q = s.parallel;
    const memory_report mem = memory_ledger(s, closed_form_shape(s.training.schedule, q.pp, q.vpp, m), false);
    if (mem.fits) return time_fitting(s, mesh, m, mem.total_bytes, out);
    scenario off = s;
    off.training.offload.optimizer = 1;
    const memory_report moved = memory_ledger(off, closed_form_shape(s.training.schedule, q.pp, q.vpp, m), false);
    if (moved.fits) return time_fitting(off, mesh, m, moved.total_bytes, out);
    out.missing.push_back({plan_choice_of(s), 0, mem.total_bytes});
}

reference search_all(scenario s, std::int64_t gpus) {
    reference out;
    const auto divs = [](std::int64_t n) {
        std::vector<std::int64_t> d;
        for (std::int64_t i = 1; i <= n; ++i)
            if (n % i == 0) d.push_back(i);
        return d;
    };
    auto& q = s.parallel;
    const cp_method_desc* own = &describe(q.cp_method);  // without CP the method is the scenario's
    for (std::int64_t tp : divs(gpus))
        for (std::int64_t pp : divs(gpus / tp))
            for (std::int64_t cp : divs(gpus / (tp * pp)))
                for (std::int64_t ep : divs(gpus / (tp * pp)))
                    for (std::int64_t etp : s.model.is_moe() ? divs(tp) : std::vector<std::int64_t>{1})
                        for (const auto& method : cp_method_rows) {
                            if (cp == 1 && &method != own) continue;
                            q.tp = tp, q.pp = pp, q.cp = cp, q.dp = gpus / (tp * pp * cp), q.ep = ep, q.etp = etp;
                            q.cp_method = method.kind, q.sp = tp > 1;
                            s.training.overlap.tp_comm = tp > 1;  // the planner's dominance rule, as sp
                            if (ep > q.dp * cp || (q.dp * cp) % ep != 0) continue;
                            mesh_layout mesh;
                            try {
                                mesh = build_mesh(mesh_spec_of(s), 0);
                            } catch (const input_error&) {
                                continue;
                            }
                            const std::int64_t G = s.training.global_batch;
                            for (std::int64_t mb : G % q.dp == 0 ? divs(G / q.dp) : std::vector<std::int64_t>{})
                                for (auto rec : {recompute_kind::none, recompute_kind::op, recompute_kind::selective, recompute_kind::full})
                                    for (int k = 0; k <= static_cast<int>(schedule_kind::dualpipev); ++k)
                                        for (std::int64_t v = 1; pp * v <= s.model.layers; ++v)  // equal chunks: v divides ⌈L/pp⌉
                                            if (v == 1 || ((s.model.layers + pp - 1) / pp) % v == 0)
                                                for (int z = 0; z <= 3; ++z) {
                                                    s.training.micro_batch = mb, s.training.recompute = rec;
                                                    s.training.schedule = static_cast<schedule_kind>(k);
                                                    q.vpp = v, q.zero = z;
                                                    if ((v > 1) != (s.training.schedule == schedule_kind::interleaved)) continue;
                                                    evaluate(s, mesh, G / (mb * q.dp), out);
                                                }
                        }
    return out;
}

}  // namespace

TEST_CASE("cached search equals a per-candidate search on a DeepSeek-V3-shaped MoE, 64 GPUs", "[planner]") {
    // DeepSeek-V3's layer shapes (MLA, 256 experts, top 8) cut to 8 layers so plans fit on 64 GPUs:
    // every knob of the planner (etp, CP methods, op recompute too) stays in a search a brute force repeats.
    const scenario s = parse_scenario_text(R"({"model": {"preset": "deepseek-v3", "layers": 8}, "cluster": "dgx-h100", "parallel": {"dp": 8},
        "training": {"seq_len": 4096, "global_batch": 64}})");
    plan_options o;
    o.gpus = 64;
    o.top = 8;
    const plan_result r = run_plan(s, o);
    scenario sized = s;
    sized.cluster.nodes = 64 / sized.cluster.gpus_per_node;
    reference ref = search_all(sized, 64);
    CHECK(r.progress.evaluated == ref.evaluated);
    REQUIRE(r.progress.fitting == static_cast<std::int64_t>(ref.fitting.size()));
    REQUIRE(r.progress.fitting > 100);
    const std::vector<ref_plan> in_order = ref.fitting;
    std::stable_sort(ref.fitting.begin(), ref.fitting.end(),
                     [](const ref_plan& a, const ref_plan& b) { return std::tie(a.time_s, a.memory_bytes) < std::tie(b.time_s, b.memory_bytes); });
    CHECK(top_set(r) == top_set(ref.fitting, r.top.size()));
    // Pareto front by (memory, time) of the reference.
    // Sweep by memory, then time, then search order: a plan is on the front when it is faster
    // than every plan before it (of exact ties the first in search order stays, as in the planner).
    std::vector<std::size_t> order(in_order.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(in_order[a].memory_bytes, in_order[a].time_s, a) < std::tie(in_order[b].memory_bytes, in_order[b].time_s, b);
    });
    // The planner lists the front's members within pareto_window × the fastest plan's time: the
    // reference's full front cut there (this search has members past it, so the cut is exercised).
    std::set<key> front;
    double fastest = 1e300;
    std::size_t full_front = 0;
    for (std::size_t i : order) {
        if (in_order[i].time_s >= fastest) continue;
        fastest = in_order[i].time_s, ++full_front;
        if (in_order[i].time_s <= pareto_window * ref.fitting.front().time_s) front.insert(key_of(in_order[i].choice));
    }
    CHECK(full_front > front.size());
    std::set<key> pareto;
    for (const auto& e : r.pareto) pareto.insert(key_of(e.choice));
    CHECK(pareto == front);
    // The front's numbers too, bit for bit: memory from the ledger, time from the per-plan model.
    for (const auto& e : r.pareto) {
        const auto it = std::find_if(in_order.begin(), in_order.end(), [&](const ref_plan& p) { return key_of(p.choice) == key_of(e.choice); });
        REQUIRE(it != in_order.end());
        CHECK(e.memory_bytes == it->memory_bytes);
        CHECK(e.time_s == it->time_s);
    }
    // Pruned plans are counted as fitting but not timed in full.
    CHECK(r.progress.timed >= static_cast<std::int64_t>(r.pareto.size()));
    CHECK(r.progress.timed <= r.progress.fitting);
    // A list longer than the fitting layouts never fills, so only a layout's own listed plan bounds
    // its other plans (top_faster_than): the list is still every layout's best, and the search
    // still times only a fraction of the fitting plans (it timed every one before that bound).
    o.top = 1000;
    const plan_result all = run_plan(s, o);
    REQUIRE(all.top.size() < 1000);
    CHECK(top_set(all) == top_set(ref.fitting, all.top.size()));
    CHECK(all.progress.fitting == r.progress.fitting);
    CHECK(all.progress.timed * 4 < all.progress.fitting);
}

TEST_CASE("nothing fits: the closest miss equals a per-candidate search's (GPT 1T on 8 GPUs)", "[planner]") {
    const scenario s = parse_scenario_text(R"({"model": "gpt-1t", "parallel": {"dp": 8}, "training": {"global_batch": 8}})");
    const plan_result r = run_plan(s, {});
    const reference ref = search_all(s, 8);
    CHECK(r.progress.evaluated == ref.evaluated);
    REQUIRE(ref.fitting.empty());
    REQUIRE(r.closest.has_value());
    // The first plan in search order with the least memory (consider() keeps the first of ties).
    const auto least = std::min_element(ref.missing.begin(), ref.missing.end(),
                                        [](const ref_plan& a, const ref_plan& b) { return a.memory_bytes < b.memory_bytes; });
    CHECK(key_of(r.closest->choice) == key_of(least->choice));
    CHECK(r.closest->memory_bytes == least->memory_bytes);
    CHECK(r.progress.timed == 0);
}
