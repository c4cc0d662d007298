// The step ledger assembly: sums, throughput and MFU from closed forms, and the bottleneck sentence (step.hpp).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "tslab/schedule_shape.hpp"
#include "tslab/step.hpp"

using namespace tslab;

namespace {

step_inputs inputs_for(const scenario& s) {
    step_inputs in;
    in.compute = estimate_compute(s);
    in.memory = memory_ledger(s, closed_form_shape(s.training.schedule, s.parallel.pp, s.parallel.vpp, in.compute.microbatches));
    in.expert = expert_ledger(s, {});
    in.context = context_traffic(s);
    in.numerics = describe_numerics(s);
    in.reliability = reliability_ledger(s, 100e9, failure_rate_per_gpu_s(419, 54, 16384), 600);
    return in;
}

}  // namespace

TEST_CASE("Step time is L3 plus the exposed L4..L7 — throughput and MFU follow", "[step]") {
    const scenario s = parse_scenario(
        {{"model", "gpt-7.5b"}, {"parallel", {{"tp", 4}, {"pp", 2}, {"dp", 2}}}, {"training", {{"global_batch", 64}, {"recompute", "full"}}}});
    step_inputs in = inputs_for(s);
    in.bubble_s = 0.5;
    in.p2p_exposed_s = 0.01;
    in.comm = {{"dp", 0.3, 0.1, 1e9}, {"tp", 0.2, 0.2, 2e9}, {"cp", 0.05, 0.02, 1e8}};
    const step_result r = assemble_step(s, in);
    REQUIRE(r.ledgers.size() == 9);
    CHECK(r.ledgers[0].id == "L1");
    CHECK(r.ledgers[8].id == "L9");
    const double expected = in.compute.step_compute_s + 0.51 + 0.3 + 0.02;
    CHECK(r.time_s == Approx(expected));
    CHECK(r.ledgers[4].exposed_s == Approx(0.3 + in.compute.slowest_gpu_step_s));  // dp + tp + waiting for the slowest GPU
    CHECK(r.ledgers[6].exposed_s == Approx(0.02));  // cp
    CHECK(r.tokens_per_s == Approx(64 * 2048 / expected));
    CHECK(r.mfu == Approx(in.compute.model_flops_per_gpu / expected / 312e12));
    CHECK(r.hfu > r.mfu);  // full recompute: hardware FLOPs exceed model FLOPs
    CHECK(r.goodput == in.reliability.goodput);
}

TEST_CASE("Bottleneck: compute binds and full recompute's trade is stated", "[step]") {
    // GPT without Flash under full recompute: +1/3 of the layers' FLOPs, a little less overall
    // because the head is not recomputed (≈ +32%).
    const scenario s = parse_scenario(
        {{"model", "gpt-1.7b"}, {"parallel", {{"dp", 8}}}, {"training", {{"global_batch", 64}, {"recompute", "full"}, {"flash_attention", false}}}});
    const step_result r = assemble_step(s, inputs_for(s));
    CHECK_THAT(r.bottleneck, Catch::StartsWith("L3 compute binds first"));
    CHECK_THAT(r.bottleneck, Catch::Contains("full recompute saves"));
    CHECK_THAT(r.bottleneck, Catch::Contains("GiB of activations and moves the cost to compute: +3"));
}

TEST_CASE("Bottleneck: the largest exposed overhead names its ledger and trade", "[step]") {
    const scenario s =
        parse_scenario({{"model", "gpt-39.1b"}, {"parallel", {{"tp", 8}, {"pp", 8}}}, {"training", {{"global_batch", 8}, {"recompute", "full"}}}});
    step_inputs in = inputs_for(s);
    in.bubble_s = 10 * in.compute.step_compute_s;
    const step_result r = assemble_step(s, in);
    CHECK_THAT(r.bottleneck, Catch::StartsWith("L4 pipeline binds first"));
    CHECK_THAT(r.bottleneck, Catch::Contains("splits the layers 8 ways and moves the cost to the bubble"));
}

TEST_CASE("Bottleneck: a plan that does not fit is bound by memory first", "[step]") {
    const scenario s = parse_scenario({{"model", "gpt-145.6b"}, {"parallel", {{"dp", 8}}}});
    const step_result r = assemble_step(s, inputs_for(s));
    CHECK_THAT(r.bottleneck, Catch::StartsWith("L1 model state binds first"));
    CHECK_THAT(r.bottleneck, Catch::Contains("GiB over its HBM"));
}

TEST_CASE("Bottleneck: selective recompute with FlashAttention is said to save nothing", "[step]") {
    // Selective recompute drops only the s² attention tensors (Korthikanti et al. arXiv 2205.05198
    // section 4.2, the 5as/h term of Table 2); FlashAttention never stores them.
    const auto with_flash = [](bool flash) {
        return parse_scenario({{"model", "gpt-1.7b"},
                               {"parallel", {{"dp", 8}}},
                               {"training", {{"global_batch", 64}, {"recompute", "selective"}, {"flash_attention", flash}}}});
    };
    const scenario flash = with_flash(true);
    const step_result r = assemble_step(flash, inputs_for(flash));
    CHECK_THAT(r.bottleneck, Catch::Contains("selective recompute changes nothing here: FlashAttention"));
    CHECK_THAT(r.bottleneck, !Catch::Contains("0.0 GiB"));
    // Nor is FlashAttention's own backward QKᵀ charged to the mode (it runs under none too).
    CHECK_THAT(r.bottleneck, !Catch::Contains("FLOPs"));
    const scenario plain = with_flash(false);
    const step_result q = assemble_step(plain, inputs_for(plain));
    CHECK_THAT(q.bottleneck, Catch::Contains("selective recompute saves "));
    CHECK_THAT(q.bottleneck, Catch::Contains("GiB of activations and moves the cost to compute"));
}

TEST_CASE("Bottleneck: selective recompute on an MLA model states its saving and only the FLOPs it adds", "[step]") {
    // DeepSeek-V3, Flash on: selective rebuilds Q, K, V from the latents (activation.hpp
    // mla_up_recomputed). The FLOPs named are the up-projections' alone, 2·(1536·24576 + 512·32768)
    // = 109.1 MFLOP per token and layer against 3 × the forward, about 2%, not FlashAttention's
    // backward QKᵀ share, which runs under recompute none as well.
    const scenario s =
        parse_scenario({{"model", "deepseek-v3"},
                        {"cluster", "dgx-h100"},
                        {"parallel", {{"dp", 8}, {"ep", 8}, {"pp", 8}}},
                        {"training", {{"seq_len", 4096}, {"global_batch", 64}, {"recompute", "selective"}, {"flash_attention", true}}}});
    const sequence_flops with = flops_per_sequence(s);
    scenario none = s;
    none.training.recompute = recompute_kind::none;
    const double added = (with.recompute - flops_per_sequence(none).recompute) / with.model();
    CHECK(added == Approx(61 * 4096 * 109051904.0 / with.model()));
    CHECK(added > 0.015);
    CHECK(added < 0.03);
    const step_result r = assemble_step(s, inputs_for(s));
    CHECK_THAT(r.bottleneck, Catch::Contains("selective recompute saves "));
    CHECK_THAT(r.bottleneck, Catch::Contains(fmt::format("moves the cost to compute: +{:.0f}% FLOPs", 100 * added)));
}

TEST_CASE("Bottleneck: the L3 note says when the rank with the last stage sets the pipeline's pace", "[step]") {
    // GPT 1T on pp 64 (2 layers per stage, Narayanan's layout): the last stage also runs the output
    // head, 2·h·V per token (a sixth of a layer's forward), forward once and backward twice.
    const auto gpt = [](std::int64_t pp, const char* schedule) {
        return parse_scenario({{"model", "gpt-1t"},
                               {"parallel", {{"tp", 8}, {"pp", pp}, {"dp", 1}}},
                               {"training", {{"global_batch", 128}, {"schedule", schedule}, {"recompute", "full"}}}});
    };
    const scenario s = gpt(64, "1f1b");
    const compute_estimate c = estimate_compute(s);
    // pp divides L, so the last stage holds a full stage's layers: the ratio is the head's share.
    CHECK(c.last_rank_load == Approx((c.fwd_s + c.bwd_s + c.recompute_s) / (c.stage_F_s + c.stage_B_s + c.stage_W_s)));
    CHECK(c.last_rank_load > 1.05);
    CHECK(c.last_rank_load < 1.15);
    const step_result r = assemble_step(s, inputs_for(s));
    CHECK_THAT(r.ledgers[2].notes, Catch::Contains("runs " + fmt::format("{:.2f}", c.last_rank_load) + "× a full stage's compute"));
    // One stage: no pipeline to hold up, no note.
    const scenario one = gpt(1, "1f1b");
    CHECK(estimate_compute(one).last_rank_load == 1);
    CHECK_THAT(assemble_step(one, inputs_for(one)).ledgers[2].notes, !Catch::Contains("last stage"));
    // DeepSeek-V3 with one MTP module at pp 16 under DualPipe: the rank with stages 0 and 15 runs
    // half of each, plus half of the head (BF16) and of the MTP module, well above a 4-layer stage.
    const scenario v3 = parse_scenario({{"model", "deepseek-v3"},
                                        {"cluster", "hgx-h800"},
                                        {"parallel", {{"dp", 8}, {"ep", 8}, {"pp", 16}}},
                                        {"training",
                                         {{"seq_len", 4096},
                                          {"global_batch", 256},
                                          {"schedule", "dualpipe"},
                                          {"mtp_depth", 1},
                                          {"precision", "fp8-mixed"},
                                          {"recompute", "selective"}}}});
    const compute_estimate d = estimate_compute(v3);
    CHECK(d.last_rank_load > 1.3);
    CHECK_THAT(assemble_step(v3, inputs_for(v3)).ledgers[2].notes, Catch::Contains("the output head and 1 MTP module(s)"));
}
