// Offload to host memory costs host-link time (offload.hpp), and the planner offloads only what must be.
#include <catch2/catch.hpp>

#include "tslab/params.hpp"
#include "tslab/planner.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

json llama8b(json offload, double host_Bps = 0) {
    json cluster = host_Bps > 0 ? json{{"preset", "dgx-h100"}, {"host", {{"bandwidth_Bps", host_Bps}}}} : json("dgx-h100");
    return json{{"model", "llama3-8b"}, {"cluster", cluster}, {"parallel", {{"dp", 8}, {"zero", 1}}},
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
    const scenario s = parse_scenario(llama8b({{"optimizer", 1.0}}));
    const report r = build_report(s);
    const double P = static_cast<double>(count_params(s.model).total);
    CHECK(r.compute.offload_optimizer_s == Approx(P / 8 * 4 / s.cluster.host.bandwidth_Bps).epsilon(1e-9));
    CHECK(segment(r, "offload_optimizer") == Approx(r.compute.offload_optimizer_s));
    const report none = build_report(parse_scenario(llama8b(json::object())));
    CHECK(none.compute.offload_optimizer_s == 0);
    CHECK(r.step.time_s == Approx(none.step.time_s + r.compute.offload_optimizer_s).epsilon(1e-9));
    CHECK(r.memory.total_bytes < none.memory.total_bytes);
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
    const json big = {{"model", "llama3-70b"}, {"cluster", "dgx-h100"}, {"parallel", {{"dp", 8}}},
                      {"training", {{"seq_len", 4096}, {"global_batch", 8}}}};
    const plan_result r = run_plan(parse_scenario(big), o);
    REQUIRE_FALSE(r.top.empty());
    for (const auto& e : r.top) CHECK(e.choice.offload_optimizer == 1);
    CHECK(r.top[0].scenario["training"]["offload"]["optimizer"] == 1);
    // 8B fits on 8 GPUs: no plan of the top list pays the host link.
    const plan_result small = run_plan(parse_scenario(llama8b(json::object())), o);
    REQUIRE_FALSE(small.top.empty());
    for (const auto& e : small.top) CHECK(e.choice.offload_optimizer == 0);
}
