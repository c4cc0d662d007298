// Multi-token prediction (training.mtp_depth): the modules' parameters, FLOPs, memory and time on the last stage.
#include <catch2/catch.hpp>

#include "tslab/compute.hpp"
#include "tslab/errors.hpp"
#include "tslab/report.hpp"
#include "tslab/scenario_json.hpp"

using namespace tslab;

namespace {

json deepseek(std::int64_t depth, json parallel = {{"dp", 1}}) {
    return json{{"model", "deepseek-v3"},
                {"cluster", "dgx-h100"},
                {"parallel", std::move(parallel)},
                {"training", {{"seq_len", 4096}, {"mtp_depth", depth}}}};
}

double item(const report& r, const std::string& id) {
    for (const auto& it : r.memory.items)
        if (it.id == id) return it.bytes;
    FAIL("no item " << id);
    return 0;
}

}  // namespace

TEST_CASE("DeepSeek-V3's MTP module holds 11.5B parameters of its own", "[mtp]") {
    // DeepSeek-V3 README_WEIGHTS.md (Hugging Face deepseek-ai/DeepSeek-V3): "MTP Modules ...
    // Parameters: 11.5B unique parameters, excluding the shared 0.9B Embedding and 0.9B output Head".
    const report r0 = build_report(parse_scenario(deepseek(0))), r1 = build_report(parse_scenario(deepseek(1)));
    const double bf16_params = (item(r1, "params") - item(r0, "params")) / 2;
    CHECK(bf16_params / 1e9 == Approx(11.5).epsilon(0.03));
}

TEST_CASE("MTP FLOPs: the module's activated parameters plus a second pass of the head", "[mtp]") {
    // Same source: "Activation parameters: 2.4B (including the shared 0.9B Embedding and 0.9B output
    // Head)". The embedding is a lookup, so the forward adds 2 × (2.4 − 0.9)B FLOPs per token, plus
    // the attention core; the backward doubles it: 6 × 1.5B = 9 GFLOP/token before attention.
    const report r0 = build_report(parse_scenario(deepseek(0))), r1 = build_report(parse_scenario(deepseek(1)));
    const double extra = r1.flops_per_token - r0.flops_per_token;
    CHECK(extra / 1e9 >= 9.0 * 0.95);
    // MLA's core at s = 4096 (non-causal count, 128 heads × (192 + 128) dims): 6 × 2 × 4096 × 40960 ≈ 2 GFLOP.
    CHECK(extra / 1e9 <= 9.0 * 1.05 + 2.1);
}

TEST_CASE("MTP sits on the last pipeline stage only", "[mtp]") {
    const json p = {{"dp", 8}, {"pp", 4}, {"ep", 8}, {"tp", 8}};
    const report r0 = build_report(parse_scenario(deepseek(0, p))), r1 = build_report(parse_scenario(deepseek(1, p)));
    REQUIRE(r0.memory.stage_total_bytes.size() == 4);
    for (std::size_t i = 0; i + 1 < 4; ++i) CHECK(r1.memory.stage_total_bytes[i] == Approx(r0.memory.stage_total_bytes[i]));
    CHECK(r1.memory.stage_total_bytes[3] > r0.memory.stage_total_bytes[3]);
    // The last stage also computes the module: its forward is longer.
    CHECK(r1.compute.fwd_s > r0.compute.fwd_s);
}

TEST_CASE("training.mtp_depth is validated and written back", "[mtp][scenario]") {
    CHECK_THROWS_WITH(parse_scenario(deepseek(-1)), Catch::Contains("training.mtp_depth"));
    CHECK_THROWS_WITH(parse_scenario(deepseek(17)), Catch::Contains("training.mtp_depth"));
    const scenario s = parse_scenario(deepseek(2));
    CHECK(scenario_to_json(s)["training"]["mtp_depth"] == 2);
}

TEST_CASE("scenario_to_json keeps every training field it parsed", "[scenario]") {
    // The planner's plans and the lab's share link rely on parse(write(s)) == s.
    const json given = {{"model", "llama3-8b"},
                        {"parallel", {{"dp", 2}, {"tp", 2}, {"sp", true}}},
                        {"training",
                         {{"overlap", {{"tp_comm", true}}},
                          {"moe", {{"comm_sms", 24}}},
                          {"precision", {{"recipe", "bf16-mixed"}, {"reduce", "fp32"}}},
                          {"mtp_depth", 1}}}};
    const scenario s = parse_scenario(given);
    const json back = scenario_to_json(s);
    CHECK(back["training"]["overlap"]["tp_comm"] == true);
    CHECK(back["training"]["moe"]["comm_sms"] == 24);
    CHECK(back["training"]["precision"]["reduce"] == "fp32");
    CHECK(scenario_to_json(parse_scenario(back)) == back);
}

TEST_CASE("scenario_to_json keeps the MoE routing and the node limit", "[scenario]") {
    // Both were dropped once, so a plan's scenario ran with uniform routing and no node limit.
    const json given = {{"model", "deepseek-v3"},
                        {"parallel", {{"dp", 8}, {"ep", 8}}},
                        {"training", {{"moe", {{"node_limit", 3}, {"routing", {{"kind", "zipf"}, {"skew", 0.7}}}}}}}};
    const json back = scenario_to_json(parse_scenario(given));
    CHECK(back["training"]["moe"]["node_limit"] == 3);
    CHECK(back["training"]["moe"]["routing"]["kind"] == "zipf");
    CHECK(back["training"]["moe"]["routing"]["skew"] == 0.7);
    CHECK(scenario_to_json(parse_scenario(back)) == back);
    std::vector<double> loads(256, 1.0);
    loads[0] = 5;
    const json hist = {{"model", "deepseek-v3"},
                       {"parallel", {{"dp", 8}, {"ep", 8}}},
                       {"training", {{"moe", {{"routing", {{"kind", "histogram"}, {"histogram", loads}}}}}}}};
    const scenario h = parse_scenario(scenario_to_json(parse_scenario(hist)));
    CHECK(h.training.moe.routing.histogram == loads);
}
