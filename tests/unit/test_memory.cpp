// ZeRO model-state bytes (arXiv 1910.02054) and the memory ledger of whole scenarios (memory.hpp).
#include <catch2/catch.hpp>

#include "tslab/memory.hpp"
#include "tslab/errors.hpp"
#include "tslab/expert_section.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

double item(const report& r, const std::string& id) {
    for (const auto& it : r.memory.items)
        if (it.id == id) return it.bytes;
    FAIL("no item " << id);
    return 0;
}

double model_state(const report& r) { return item(r, "params") + item(r, "grads") + item(r, "master_params") + item(r, "optimizer_states"); }

}  // namespace

TEST_CASE("ZeRO paper example: 7.5B params on 64 GPUs", "[memory][zero]") {
    // arXiv 1910.02054 Figure 1 / section 3: Psi = 7.5B, Nd = 64, K = 12, 16-bit params and grads:
    // baseline (2+2+K)Psi = 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB (1.875).
    const precision_spec p;  // bf16-mixed
    const double P = 7.5e9, N = 64, states = 2 * P;
    CHECK(zero_model_state(p, 0, P, states, N).total() == Approx(16 * P));
    CHECK(zero_model_state(p, 1, P, states, N).total() == Approx(4 * P + 12 * P / N));
    CHECK(zero_model_state(p, 2, P, states, N).total() == Approx(2 * P + 14 * P / N));
    CHECK(zero_model_state(p, 3, P, states, N).total() == Approx(16 * P / N));
    CHECK(zero_model_state(p, 0, P, states, N).total() / 1e9 == Approx(120).margin(0.05));
    CHECK(zero_model_state(p, 1, P, states, N).total() / 1e9 == Approx(31.4).margin(0.05));
    CHECK(zero_model_state(p, 2, P, states, N).total() / 1e9 == Approx(16.6).margin(0.05));
    CHECK(zero_model_state(p, 3, P, states, N).total() / 1e9 == Approx(1.875).margin(0.001));
}

TEST_CASE("70B ZeRO-3 over 64 GPUs: model state is 16P/N", "[memory][zero]") {
    const report r = build_report(parse_scenario(json{{"model", "llama3-70b"}, {"cluster", "dgx-h100"}, {"parallel", {{"dp", 64}, {"zero", 3}}}}));
    const double P = static_cast<double>(r.params.total);
    CHECK(model_state(r) == Approx(16 * P / 64));
    const report z0 = build_report(parse_scenario(json{{"model", "llama3-70b"}, {"parallel", {{"dp", 64}, {"zero", 0}}}}));
    CHECK(model_state(z0) == Approx(16 * P));
}

TEST_CASE("Optimizers: Adam 2 moments, SGD and Muon 1, Adafactor factored", "[memory]") {
    CHECK(optimizer_state_elems(optimizer_kind::adamw, true, 10, 20, 1) == 400);
    CHECK(optimizer_state_elems(optimizer_kind::sgd, true, 10, 20, 1) == 200);
    CHECK(optimizer_state_elems(optimizer_kind::muon, true, 10, 20, 1) == 200);
    CHECK(optimizer_state_elems(optimizer_kind::muon, false, 10, 1, 1) == 20);  // vectors use AdamW
    CHECK(optimizer_state_elems(optimizer_kind::adafactor, true, 10, 20, 3) == 90);
}

TEST_CASE("1F1B first stage holds L layers of activations, interleaved 1 + (p-1)/(pv) more", "[memory]") {
    // Korthikanti et al. section 4.2.3: the first 1F1B stage stores p micro-batches of L/p layers;
    // interleaving multiplies that by 1 + (p − 1)/(p·v).
    json base = {
        {"model", "gpt-175b"}, {"parallel", {{"tp", 8}, {"pp", 8}, {"sp", true}}}, {"training", {{"recompute", "selective"}, {"global_batch", 64}}}};
    const report r = build_report(parse_scenario(base));
    const double per_layer = 2048.0 * 12288 * 34 / 8 + 4.0 * 96 * 2048 / 8;
    CHECK(item(r, "activations_layers") == Approx(96 * per_layer));
    json inter = base;
    inter["parallel"]["vpp"] = 3;
    inter["training"]["schedule"] = "interleaved";
    const report ri = build_report(parse_scenario(inter));
    CHECK(item(ri, "activations_layers") == Approx(96 * per_layer * (1 + 7.0 / 24)));
}

TEST_CASE("DualPipe keeps 2x parameters and PP+1 stages of activations", "[memory]") {
    // DualPipe README table: DualPipe 2x params, PP+1 activations (1F1B: 1x, PP).
    json a = {{"model", "gpt-175b"}, {"parallel", {{"tp", 8}, {"pp", 8}}}, {"training", {{"global_batch", 32}}}};
    json b = a;
    b["training"]["schedule"] = "dualpipe";
    const report r1 = build_report(parse_scenario(a)), r2 = build_report(parse_scenario(b));
    CHECK(r2.pipeline.param_copies == 2);
    CHECK(r2.memory.inflight == 9);
    CHECK(r1.memory.inflight == 8);
}

TEST_CASE("Expert params shard over EP x ETP, never over TP alone", "[memory]") {
    // DeepSeek-V3 cut to 8 layers (3 dense + 5 MoE) on one pipeline stage; one expert holds
    // 3·h·f_e = 3·7168·2048 weights (SwiGLU gate, up, down), 2 bytes each in bf16.
    const double expert = 3.0 * 7168 * 2048 * 2, moe_layers = 5;
    auto params_of = [](long dp, long tp, long ep, long etp) {
        json doc = {{"model", {{"preset", "deepseek-v3"}, {"layers", 8}}},
                    {"parallel", {{"dp", dp}, {"tp", tp}, {"ep", ep}, {"etp", etp}}},
                    {"training", {{"global_batch", 64}}}};
        return item(build_report(parse_scenario(doc)), "params");
    };
    // ep 64 -> 32: each rank holds 8 instead of 4 of the 256 experts per layer.
    CHECK(params_of(64, 1, 32, 1) - params_of(64, 1, 64, 1) == Approx(moe_layers * 4 * expert));
    // tp = 2 leaves experts whole (etp = 1); etp = 2 halves each of the 8 local experts.
    CHECK(params_of(32, 2, 32, 1) - params_of(32, 2, 32, 2) == Approx(moe_layers * 8 * expert / 2));
}

TEST_CASE("Offload moves bytes to the host and out of the HBM total", "[memory]") {
    json a = {{"model", "llama3-8b"}, {"parallel", {{"dp", 8}}}};
    json b = a;
    b["training"]["offload"] = {{"optimizer", 1.0}};
    const report ra = build_report(parse_scenario(a)), rb = build_report(parse_scenario(b));
    CHECK(item(rb, "optimizer_states") == 0);
    CHECK(item(rb, "offloaded") == Approx(item(ra, "optimizer_states") + item(ra, "master_params")));
    CHECK(rb.memory.total_bytes == Approx(ra.memory.total_bytes - item(rb, "offloaded")));
}

TEST_CASE("fits compares the total with HBM capacity and says by how much", "[memory]") {
    const report big = build_report(parse_scenario(json{{"model", "llama3-405b"}, {"cluster", "dgx-h100"}}));
    CHECK_FALSE(big.memory.fits);
    CHECK(big.memory.headroom_bytes == Approx(big.memory.capacity_bytes - big.memory.total_bytes));
    CHECK(big.memory.capacity_bytes == 80.0 * 1024 * 1024 * 1024);  // H100 SXM 80 GB = 80 GiB of HBM3
}

TEST_CASE("planner path: peak_stage_bytes equals the full ledger's total bit for bit", "[memory][planner]") {
    // An equivalence check between two implementations of the same sum (the ledger itself is
    // checked against the papers above): the planner's numbers-only path must not move a plan
    // across the HBM line or reorder the Pareto front, so the doubles must be identical.
    struct layout {
        const char* model;
        std::int64_t dp, tp, pp, cp, ep;
        double offload;
    };
    const layout layouts[] = {{"kimi-k2", 64, 8, 8, 1, 64, 0}, {"kimi-k2", 32, 4, 16, 2, 16, 0.5}, {"kimi-k2", 512, 1, 1, 1, 8, 0},
                              {"gpt-1.7b", 2, 2, 2, 1, 1, 0},  {"gpt-1.7b", 1, 1, 8, 1, 1, 0.25},  {"llama3-70b", 4, 8, 4, 2, 1, 0}};
    const char* schedules[] = {"gpipe", "1f1b", "interleaved", "zb-h2", "zbv", "dualpipe", "dualpipev"};
    std::int64_t compared = 0;
    for (const auto& l : layouts)
        for (const char* sched : schedules)
            for (const char* rec : {"none", "selective", "full"})
                for (std::int64_t mb : {1, 2})
                    for (int z = 0; z <= 3; ++z) {
                        const std::int64_t v = std::string(sched) == "interleaved" ? 2 : 1;
                        json doc = {{"model", l.model},
                                    {"cluster", "dgx-h100"},
                                    {"parallel", {{"dp", l.dp}, {"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep}, {"vpp", v}, {"zero", z}}},
                                    {"training",
                                     {{"seq_len", 4096},
                                      {"global_batch", 1024},
                                      {"micro_batch", mb},
                                      {"recompute", rec},
                                      {"schedule", sched},
                                      {"offload", {{"optimizer", l.offload}, {"activations", l.offload}}}}}};
                        scenario s;
                        try {
                            s = parse_scenario(doc);
                        } catch (const input_error&) {
                            continue;  // e.g. DualPipe needs an even pp
                        }
                        const schedule_kind k = s.training.schedule;
                        const std::int64_t m = 1024 / (mb * l.dp);
                        const pipeline_shape shape = closed_form_shape(k, l.pp, v, m);
                        const auto tensors = tensor_list(s.model);
                        const auto classes = detail::stage_classes(s, closed_form_shape(k, l.pp, v, 1), tensors);
                        const double fast = detail::peak_stage_bytes(s, shape, classes, detail::activation_terms_of(s));
                        CHECK(fast == memory_ledger(s, shape, false, &tensors).total_bytes);
                        ++compared;
                    }
    CHECK(compared > 500);
}

TEST_CASE("planner path: a class is as loaded as its most loaded member, whatever the order over ranks", "[memory][planner]") {
    // Kimi K2's 61 layers on pp 8: ranks 1-4 hold 8 layers each and share shards. With one
    // micro-batch in flight everywhere except rank 4 (8), rank 4 is the busiest rank of the step,
    // not the first of its class. The full ledger over every rank of the same shape is the reference.
    const scenario s = parse_scenario(json{{"model", "kimi-k2"},
                                           {"cluster", "dgx-h100"},
                                           {"parallel", {{"dp", 64}, {"tp", 8}, {"pp", 8}, {"ep", 64}}},
                                           {"training", {{"seq_len", 4096}, {"global_batch", 1024}}}});
    const auto tensors = tensor_list(s.model);
    pipeline_shape shape = closed_form_shape(schedule_kind::one_f_one_b, 8, 1, 16);
    shape.inflight = {1, 1, 1, 1, 8, 1, 1, 1};
    const auto classes = detail::stage_classes(s, shape, tensors);
    REQUIRE(classes.size() < 8);  // some class holds several ranks
    const double fast = detail::peak_stage_bytes(s, shape, classes, detail::activation_terms_of(s));
    const memory_report full = memory_ledger(s, shape, false, &tensors);
    REQUIRE(full.stage == 4);
    CHECK(fast == full.total_bytes);
}

TEST_CASE("redundant expert replicas: R/ep per GPU × params per expert × (weight + grad) bytes", "[memory][expert]") {
    // DeepSeek-V3 (arXiv 2412.19437 section 4.2): 256 routed experts of SwiGLU width 2048 on hidden
    // 7168, so 3 × 7168 × 2048 = 44,040,192 params per expert and layer; 61 layers, the first 3 dense:
    // 58 MoE layers. EP 64, pp 1, R = 128 redundant slots → 2 replicas per GPU per MoE layer.
    // bf16-mixed: 2 B weights + 2 B grads (trained copies; master and optimizer states stay with the
    // owner, memory.hpp). 2 × 44,040,192 × 58 × 4 = 20,434,649,088 B.
    auto v3 = [](std::int64_t redundant) {
        return build_report(parse_scenario({{"model", "deepseek-v3"},
                                            {"cluster", "dgx-h100"},
                                            {"parallel", {{"dp", 64}, {"ep", 64}}},
                                            {"training",
                                             {{"seq_len", 4096},
                                              {"global_batch", 64},
                                              {"moe", {{"routing", {{"kind", "zipf"}, {"skew", 1.0}}}, {"redundant_experts", redundant}}}}}}));
    };
    const report none = v3(0), two = v3(128);
    const double expected = 2.0 * 44040192 * 58 * 4;
    REQUIRE(expected == 20434649088.0);
    REQUIRE(item(two, "redundant_experts") == Approx(expected));
    REQUIRE(two.memory.total_bytes - none.memory.total_bytes == Approx(expected));
    REQUIRE(model_state_bytes_of(two.memory) - model_state_bytes_of(none.memory) == Approx(expected));
    // No replicas: no item (the list stays as before); replicas are not checkpointed.
    for (const auto& it : none.memory.items) REQUIRE(it.id != "redundant_experts");
    REQUIRE(checkpoint_state_bytes_of(two.memory) == Approx(checkpoint_state_bytes_of(none.memory)));
    // The expert section reports the same bytes (one stage: the last is the busiest).
    REQUIRE(expert_section_of(two.input, two.mesh, two.compute, two.step).redundant_bytes == Approx(expected));
}
