// The report's expert section (expert_section.hpp): DeepSeek-V3 dispatch sizes, the NVLink/network
// split with node-limited routing, the busiest rank's time and the recovery with redundant experts.
#include <catch2/catch.hpp>

#include "tslab/expert_section.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

// DeepSeek-V3 (arXiv 2412.19437): hidden 7168, top-8 routing, EP 64 over 8 nodes of 8 GPUs.
// model_moe overrides the preset's model.moe fields ({"groups", 1}: plain top-8 routing).
scenario deepseek_moe(json moe, const char* precision = "fp8-mixed", json model_moe = json::object(), std::int64_t ep = 64) {
    return parse_scenario({{"model", {{"preset", "deepseek-v3"}, {"moe", std::move(model_moe)}}},
                           {"cluster", {{"preset", "dgx-h100"}}},
                           {"parallel", {{"dp", ep}, {"ep", ep}, {"pp", 1}}},
                           {"training", {{"seq_len", 4096}, {"micro_batch", 1}, {"global_batch", ep}, {"precision", precision}, {"moe", moe}}}});
}

expert_section section_of(const scenario& s) {
    const report r = build_report(s);
    return expert_section_of(r.input, r.mesh, r.compute, r.step);
}

}  // namespace

TEST_CASE("dispatch and combine bytes per token: DeepSeek-V3's FP8 dispatch, BF16 combine", "[expert_section]") {
    // Section 3.3.4 / DeepEP: FP8 dispatch with one fp32 scale per 128 channels, BF16 combine.
    // Per token: dispatch 8 × 7168 × (1 + 4/128) = 59,136 B; combine 8 × 7168 × 2 = 114,688 B.
    const dispatch_split d = section_of(deepseek_moe(json::object(), "fp8-mixed", {{"groups", 1}})).dispatch;
    REQUIRE(d.tokens == 4096);
    REQUIRE(d.dispatch_bytes / d.tokens == Approx(59136));
    REQUIRE(d.combine_bytes / d.tokens == Approx(114688));
    REQUIRE(d.ep_nodes == 8);
    REQUIRE(d.ranks_per_node == 8);
    // Plain All-to-All: (64 − 8)/64 of the pairs leave the node: 59,136 × 7/8 = 51,744 B per token.
    REQUIRE(d.dispatch_network_bytes / d.tokens == Approx(51744));
    // BF16 dispatch: 8 × 7168 × 2 = 114,688 B per token.
    REQUIRE(section_of(deepseek_moe(json::object(), "bf16-mixed")).dispatch.dispatch_bytes / 4096 == Approx(114688));
}

TEST_CASE("group-limited routing bounds the nodes a token reaches: the model's limit, or a tighter node_limit", "[expert_section]") {
    // DeepSeek-V3's router keeps the 4 best of 8 groups of 32 experts (config.json n_group 8,
    // topk_group 4). On EP 64 over 8 nodes each group is one node's 32 experts, so a token reaches
    // at most 4 nodes: section 4.2's "at most 4 nodes", from the model alone.
    const dispatch_split model = section_of(deepseek_moe(json::object())).dispatch;
    CHECK(model.node_limit == 4);
    CHECK(model.node_limit_from == "model.moe.topk_groups");
    CHECK(model.dispatch_network_bytes / model.tokens == Approx(25872));  // as node_limit 4 below
    // A tighter training limit wins; a looser one leaves the model's.
    const dispatch_split tight = section_of(deepseek_moe({{"node_limit", 2}})).dispatch;
    CHECK((tight.node_limit == 2 && tight.node_limit_from == "training.moe.node_limit"));
    CHECK(tight.dispatch_network_bytes / tight.tokens == Approx(2 * 7.0 / 8 * 7392));
    const dispatch_split loose = section_of(deepseek_moe({{"node_limit", 6}})).dispatch;
    CHECK((loose.node_limit == 4 && loose.node_limit_from == "model.moe.topk_groups"));
    // Plain top-k routing: no limit from anywhere.
    const dispatch_split plain = section_of(deepseek_moe(json::object(), "fp8-mixed", {{"groups", 1}})).dispatch;
    CHECK((plain.node_limit == 0 && plain.node_limit_from.empty()));
    // EP 128 over 16 nodes: a group's 32 experts sit on 16 ranks = 2 nodes, so 4 × 2 = 8 nodes.
    CHECK(section_of(deepseek_moe(json::object(), "fp8-mixed", json::object(), 128)).dispatch.node_limit == 8);
    // EP 32 over 4 nodes: 4 groups can reach every node, so no bound below N.
    CHECK(section_of(deepseek_moe(json::object(), "fp8-mixed", json::object(), 32)).dispatch.node_limit == 0);
    // One EP rank per node (the EP axis strided over nodes): a group spans 8 ranks = 8 nodes → 32 of 64.
    CHECK(group_node_limit(deepseek_moe(json::object()), 64) == 32);
    // 16 groups of 16 experts, top 2 groups, on 8 nodes: each group is half a node → 2 nodes.
    CHECK(group_node_limit(deepseek_moe(json::object(), "fp8-mixed", {{"groups", 16}, {"topk_groups", 2}}), 8) == 2);
}

TEST_CASE("node-limited routing (M = 4) halves the network bytes of top-8 over 8 nodes", "[expert_section]") {
    // Each token reaches at most 4 nodes, 4 × 7/8 = 3.5 of them remote on average, once each:
    // 3.5 × 7168 × 1.03125 = 25,872 B per token against 7 × 7392 = 51,744 B without the limit.
    const dispatch_split d = section_of(deepseek_moe({{"node_limit", 4}})).dispatch;
    REQUIRE(d.dispatch_network_bytes / d.tokens == Approx(25872));
    REQUIRE(d.combine_network_bytes / d.tokens == Approx(3.5 * 7168 * 2));
    REQUIRE(d.network_bytes_unlimited / d.tokens == Approx(51744 + 7 * 7168 * 2));
}

TEST_CASE("the busiest rank sets the pace: skew raises it, redundant experts bring it back", "[expert_section]") {
    const report flat = build_report(deepseek_moe({{"routing", {{"kind", "zipf"}, {"skew", 0.0}}}}));
    const report skewed = build_report(deepseek_moe({{"routing", {{"kind", "zipf"}, {"skew", 0.8}}}}));
    const report fixed = build_report(deepseek_moe({{"routing", {{"kind", "zipf"}, {"skew", 0.8}}}, {"redundant_experts", 64}}));
    const expert_section a = expert_section_of(flat.input, flat.mesh, flat.compute, flat.step);
    const expert_section b = expert_section_of(skewed.input, skewed.mesh, skewed.compute, skewed.step);
    const expert_section c = expert_section_of(fixed.input, fixed.mesh, fixed.compute, fixed.step);
    REQUIRE(a.imbalance == Approx(1.0));
    REQUIRE(b.expert_busiest_s > a.expert_busiest_s);
    REQUIRE(skewed.step.time_s > flat.step.time_s);
    REQUIRE(c.balanced_busiest_pairs < b.busiest_pairs);
    REQUIRE(fixed.step.time_s < skewed.step.time_s);
    REQUIRE(c.redundant_bytes > 0);
    // The excess is the step's expert_imbalance segment.
    for (const auto& g : skewed.step.segments)
        if (g.id == "expert_imbalance") REQUIRE(g.time_s == Approx(b.imbalance_s));
}
