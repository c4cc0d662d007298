// Offload to host memory costs host-link and host-CPU time (offload.hpp), and the planner offloads only what must be.
#include <catch2/catch.hpp>

#include "tslab/params.hpp"
#include "tslab/planner.hpp"
#include "tslab/report.hpp"
#include "tslab/scenario_json.hpp"

using namespace tslab;

namespace {

json llama8b(json offload, double host_Bps = 0, double host_memory_Bps = 0) {
    json cluster = json{{"preset", "dgx-h100"}};
    if (host_Bps > 0) cluster["host"] = {{"bandwidth_Bps", host_Bps}};
    if (host_memory_Bps > 0) cluster["host_memory_bandwidth_Bps"] = host_memory_Bps;
    return json{{"model", "llama3-8b"},
                {"cluster", cluster},
                {"parallel", {{"dp", 8}, {"zero", 1}}},
                {"training", {{"seq_len", 4096}, {"global_batch", 64}, {"offload", std::move(offload)}}}};
}

double segment(const report& r, const std::string& id) {
    for (const auto& s : r.step.segments)
        if (s.id == id) return s.time_s;
    FAIL("no segment " << id);
    return 0;
}

}  // namespace

TEST_CASE("optimizer offload moves each step's gradient shard out and its params back", "[offload]") {
    // ZeRO-Offload (Ren et al., arXiv 2101.06840 section 4.1): 16-bit gradients go to the CPU and
    // updated 16-bit params come back, 2 + 2 bytes per parameter of the rank's shard (ZeRO-1 over dp 8).
    // A host memory fast enough that the update hides under the params' way back leaves the link alone.
    const scenario s = parse_scenario(llama8b({{"optimizer", 1.0}}, 0, 1e16));
    const report r = build_report(s);
    const double P = static_cast<double>(count_params(s.model).total);
    CHECK(r.compute.offload_optimizer_s == Approx(P / 8 * 4 / s.cluster.host.bandwidth_Bps).epsilon(1e-9));
    CHECK(segment(r, "offload_optimizer") == Approx(r.compute.offload_optimizer_s));
    const report none = build_report(parse_scenario(llama8b(json::object())));
    CHECK(none.compute.offload_optimizer_s == 0);
    CHECK(r.step.time_s == Approx(none.step.time_s + r.compute.offload_optimizer_s).epsilon(1e-9));
    CHECK(r.memory.total_bytes < none.memory.total_bytes);
}

TEST_CASE("the host CPUs update every offloaded shard of their node through the host's DRAM", "[offload]") {
    // CPU-Adam (arXiv 2101.06840 section 5.1, Algorithm 1) streams, per parameter, the bf16 gradient
    // (2 B), the fp32 master copy in and out (8 B), both fp32 Adam moments in and out (16 B) and the
    // bf16 params out (2 B): 28 B. The DGX H100's two Xeon Platinum 8480C: 8 channels of DDR5-4800
    // each, 2 × 8 × 4.8e9 × 8 B = 614.4 GB/s. All 8 GPUs' shards (P / 8 each, ZeRO-1 over dp 8) share it.
    const scenario s = parse_scenario(llama8b({{"optimizer", 1.0}}));
    REQUIRE(s.cluster.host_memory_bandwidth_Bps == Approx(2 * 8 * 4.8e9 * 8));
    const report r = build_report(s);
    const double P = static_cast<double>(count_params(s.model).total);
    const double update_s = 8 * (P / 8) * 28 / 614.4e9;
    CHECK(r.compute.offload_optimizer_cpu_s == Approx(update_s).epsilon(1e-9));
    // Gradients out first; the update and the params' way back overlap tile by tile (Algorithm 1 line 15).
    const double out_s = P / 8 * 2 / s.cluster.host.bandwidth_Bps, back_s = out_s;
    REQUIRE(update_s > back_s);
    CHECK(r.compute.offload_optimizer_s == Approx(out_s + update_s).epsilon(1e-9));
    // Half the states offloaded: half the update.
    const report half = build_report(parse_scenario(llama8b({{"optimizer", 0.5}})));
    CHECK(half.compute.offload_optimizer_cpu_s == Approx(update_s / 2).epsilon(1e-9));
    // One GPU per node: its host updates one shard.
    json one = llama8b({{"optimizer", 1.0}});
    one["cluster"] = {{"preset", "dgx-h100"}, {"gpus_per_node", 1}};
    CHECK(build_report(parse_scenario(one)).compute.offload_optimizer_cpu_s == Approx(update_s / 8).epsilon(1e-9));
    // The L1 note names the update.
    bool named = false;
    for (const auto& l : r.step.ledgers)
        for (const auto& n : l.notes_msg) named = named || n.id == "step.note.offload_optimizer";
    CHECK(named);
}

TEST_CASE("the delayed parameter update hides the host update under the next step's passes", "[offload]") {
    // ZeRO-Offload section 5.2 (DPU): step i's update runs while step i+1's forward and backward run
    // on step i-1's params, so only what outlasts those passes stays exposed. Only the gradients' way
    // out is left in a step whose m passes outlast the update (global batch 64: 8 micro-batches).
    json dpu = llama8b({{"optimizer", 1.0}, {"delayed_update", true}});
    const report long_step = build_report(parse_scenario(dpu));
    const report plain = build_report(parse_scenario(llama8b({{"optimizer", 1.0}})));
    const double P = 8.03e9;  // llama3-8b, within the 1% Approx below
    const double out_s = static_cast<double>(count_params(parse_scenario(dpu).model).total) / 8 * 2 / 64e9;
    CHECK(long_step.compute.offload_optimizer_s == Approx(out_s).epsilon(1e-9));
    CHECK(long_step.compute.offload_optimizer_cpu_s == Approx(plain.compute.offload_optimizer_cpu_s));
    CHECK(plain.compute.offload_optimizer_cpu_s == Approx(P * 28 / 614.4e9).epsilon(0.01));
    // One micro-batch of 512 tokens: the update outlasts the passes, and the rest shows.
    dpu["training"]["global_batch"] = 8, dpu["training"]["seq_len"] = 512;
    const report short_step = build_report(parse_scenario(dpu));
    const compute_estimate& c = short_step.compute;
    const double passes_s = static_cast<double>(c.microbatches) * (c.fwd_s + c.bwd_s + c.recompute_s);
    REQUIRE(c.offload_optimizer_cpu_s > passes_s);
    CHECK(c.offload_optimizer_s == Approx(out_s + c.offload_optimizer_cpu_s - passes_s).epsilon(1e-9));
    bool named = false;
    for (const auto& l : short_step.step.ledgers)
        for (const auto& n : l.notes_msg) named = named || n.id == "step.note.offload_delayed";
    CHECK(named);
    // A plan's scenario (scenario_to_json) keeps the switch and the host's memory bandwidth.
    dpu["cluster"] = {{"preset", "dgx-h100"}, {"host_memory_bandwidth_Bps", 3e11}};
    const scenario again = parse_scenario(scenario_to_json(parse_scenario(dpu)));
    CHECK(again.training.offload.delayed_update);
    CHECK(again.cluster.host_memory_bandwidth_Bps == 3e11);
}

TEST_CASE("a delayed update without offloaded optimizer states names its field", "[offload][errors]") {
    CHECK_THROWS_WITH(parse_scenario(llama8b({{"delayed_update", true}})),
                      Catch::Contains("training.offload.delayed_update") && Catch::Contains("training.offload.optimizer above 0"));
    CHECK_THROWS_WITH(parse_scenario(llama8b({{"optimizer", 1.0}, {"delayed_update", 1}})), Catch::Contains("training.offload.delayed_update"));
}

TEST_CASE("a host memory bandwidth that is not a positive number names its field", "[offload][errors]") {
    json bad = llama8b({{"optimizer", 1.0}});
    bad["cluster"] = {{"preset", "dgx-h100"}, {"host_memory_bandwidth_Bps", 0}};
    CHECK_THROWS_WITH(parse_scenario(bad), Catch::Contains("cluster.host_memory_bandwidth_Bps"));
    bad["cluster"]["host_memory_bandwidth_Bps"] = "fast";
    CHECK_THROWS_WITH(parse_scenario(bad), Catch::Contains("cluster.host_memory_bandwidth_Bps"));
}

TEST_CASE("activation offload is exposed only where the copies outrun the compute", "[offload]") {
    // A fast host link hides the copies under the forward and backward; a slow one does not.
    const report fast = build_report(parse_scenario(llama8b({{"activations", 0.5}}, 1e15)));
    CHECK(fast.compute.offload_activations_s == 0);
    const report slow = build_report(parse_scenario(llama8b({{"activations", 0.5}}, 1e9)));
    CHECK(slow.compute.offload_activations_s > 0);
    CHECK(segment(slow, "offload_activations") == Approx(slow.compute.offload_activations_s));
}

TEST_CASE("the planner offloads optimizer states only where nothing fits without", "[offload][planner]") {
    // 70B on 8 GPUs: 16 bytes per parameter, 1.1 TB, cannot fit 8 × 80 GiB even at ZeRO-3;
    // with the master copy and Adam states (12 B/param) on the host, 4 B/param remain.
    plan_options o;
    o.top = 3;
    const json big = {
        {"model", "llama3-70b"}, {"cluster", "dgx-h100"}, {"parallel", {{"dp", 8}}}, {"training", {{"seq_len", 4096}, {"global_batch", 8}}}};
    const plan_result r = run_plan(parse_scenario(big), o);
    REQUIRE_FALSE(r.top.empty());
    for (const auto& e : r.top) CHECK(e.choice.offload_optimizer == 1);
    CHECK(r.top[0].scenario["training"]["offload"]["optimizer"] == 1);
    // 8B fits on 8 GPUs: no plan of the top list pays the host link.
    const plan_result small = run_plan(parse_scenario(llama8b(json::object())), o);
    REQUIRE_FALSE(small.top.empty());
    for (const auto& e : small.top) CHECK(e.choice.offload_optimizer == 0);
}
