// Data-parallel overlap: Megatron-Core's buckets (only what the bucket pipeline leaves after its
// compute window is exposed; the default bucket max(40M, 1M × DP) makes that grow with DP) and
// ZeRO-3's per-layer prefetch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "tslab/dp_overlap.hpp"
#include "tslab/planner.hpp"
#include "tslab/report.hpp"
#include "tslab/scenario_json.hpp"

using namespace tslab;

namespace {

// The recurrence the closed form solves: bucket i ready at i·w/n, one stream, c per bucket.
double simulated_tail(double c, std::int64_t n, double w) {
    double done = 0;
    for (std::int64_t i = 1; i <= n; ++i) done = std::max(done, static_cast<double>(i) * w / static_cast<double>(n)) + c;
    return done - w;
}

// Nemotron-4 15B's shape (arXiv 2402.16819 Table 1) at TP 8, 4 sequences per DP rank, ZeRO-1.
std::string nemotron(int dp, const char* overlap) {
    return R"({"model":{"name":"n15","layers":32,"hidden":6144,"heads":48,"kv_heads":8,"attention":"gqa","ffn_type":"gelu",
               "ffn_hidden":24576,"vocab":256000,"position_embeddings":0,"norm":"layernorm","bias":false,"dropout":false,
               "tied_embeddings":false},"cluster":"dgx-h100","parallel":{"dp":)" +
        std::to_string(dp) + R"(,"tp":8,"sp":true,"zero":1},"training":{"seq_len":4096,"global_batch":)" + std::to_string(4 * dp) +
        R"(,"precision":"bf16-fp32-grads","overlap":)" + overlap + "}}";
}

double exposed_dp_s(const report& r) {
    double t = 0;
    for (const auto& it : r.comm.items)
        if (it.axis == "dp") t += it.step_exposed_s();
    return t;
}

const comm_item& item(const report& r, const char* what) {
    for (const auto& it : r.comm.items)
        if (it.what.find(what) != std::string::npos) return it;
    FAIL("no comm item " << what);
    return r.comm.items.front();
}

}  // namespace

TEST_CASE("bucket pipeline: closed form equals the one-stream recurrence") {
    for (const double w : {0.0, 0.01, 0.05, 0.2, 1.0})
        for (const std::int64_t n : {1, 3, 7, 21})
            CHECK(bucketed_exposed_s(0.008, n, w) == Approx(std::min(0.008 * static_cast<double>(n), simulated_tail(0.008, n, w))));
    CHECK(bucketed_exposed_s(0.01, 10, 10.0) == Approx(0.01));  // ample compute: the last bucket only
    CHECK(bucketed_exposed_s(0.01, 10, 0.0) == Approx(0.1));  // no compute to hide under: all of it
}

TEST_CASE("MCore's default bucket is max(40M, 1M x DP) elements") {
    CHECK(dp_bucket_elems(overlap_spec{}, 8) == 40e6);
    CHECK(dp_bucket_elems(overlap_spec{}, 288) == 288e6);
    overlap_spec o;
    o.bucket_elems = 5e6;
    CHECK(dp_bucket_elems(o, 288) == 5e6);
    CHECK(dp_bucket_count(1.95e9, 96e6) == 21);
}

TEST_CASE("exposed DP time grows with DP at the same per-GPU work (Nemotron-4 Table 2 shape)") {
    const char* on = R"({"grad_reduce":true,"param_gather":true})";
    const report r96 = build_report(parse_scenario(json::parse(nemotron(96, on))));
    const report r288 = build_report(parse_scenario(json::parse(nemotron(288, on))));
    // The same work per GPU: only the optimizer shard and the slowest GPU's delay (sync.hpp) differ.
    CHECK(r96.compute.step_compute_s - r96.compute.slowest_gpu_step_s ==
          Approx(r288.compute.step_compute_s - r288.compute.slowest_gpu_step_s).epsilon(1e-3));
    CHECK(exposed_dp_s(r288) > 1.05 * exposed_dp_s(r96));  // bigger buckets: a longer last bucket
    CHECK(item(r288, "ReduceScatter").count < item(r96, "ReduceScatter").count);
    // Overlap hides part, never all: with 4 micro-batches only the last backward is a window.
    const report off = build_report(parse_scenario(json::parse(nemotron(96, "{}"))));
    CHECK(exposed_dp_s(r96) < 0.8 * exposed_dp_s(off));
    CHECK(exposed_dp_s(r96) > item(r96, "ReduceScatter").call.time_s);
}

TEST_CASE("with ample backward, the exposed gradient sync is the last bucket's reduce-scatter") {
    // gpt-7.5b, tp 8, dp 4, one micro-batch of 8K tokens, 10M-element buckets.
    const auto s = parse_scenario(json::parse(R"({"model":"gpt-7.5b","cluster":"dgx-h100","parallel":{"tp":8,"dp":4,"zero":1},
        "training":{"seq_len":8192,"micro_batch":1,"global_batch":4,"overlap":{"grad_reduce":true,"bucket_elems":1e7}}})"));
    const report r = build_report(s);
    const comm_item& rs = item(r, "ReduceScatter");
    REQUIRE(rs.count > 5);
    REQUIRE(rs.step_time_s() < r.compute.bwd_s);
    CHECK(rs.step_exposed_s() == Approx(rs.call.time_s));
    CHECK(item(r, "AllGather after").overlap == 0);  // param_gather off: one call, fully exposed
    CHECK(item(r, "AllGather after").count == 1);
    // A plan entry's scenario carries the fields: the report it gives is the same.
    CHECK(build_report(parse_scenario(scenario_to_json(s))).step.time_s == Approx(r.step.time_s).epsilon(1e-12));
}

TEST_CASE("ZeRO-2 under gradient accumulation: each micro-batch's reduce-scatter hides behind its own backward") {
    // The same shape with 4 micro-batches: ZeRO-2 runs 4 rounds of buckets (vocabulary.hpp, zero_stage_rows),
    // each exposing its last bucket, where ZeRO-1 runs one round behind the last backward.
    const auto at = [](int zero) {
        return build_report(parse_scenario(json::parse(R"({"model":"gpt-7.5b","cluster":"dgx-h100","parallel":{"tp":8,"dp":4,"zero":)" +
                                                       std::to_string(zero) + R"(},"training":{"seq_len":8192,"micro_batch":1,
            "global_batch":16,"overlap":{"grad_reduce":true,"bucket_elems":1e7}}})")));
    };
    const report z1 = at(1), z2 = at(2);
    const comm_item &rs1 = item(z1, "ReduceScatter"), &rs2 = item(z2, "ReduceScatter");
    CHECK(rs2.per == "micro-batch");
    CHECK(4 * rs1.count == rs2.count);
    CHECK(rs1.step_exposed_s() == Approx(rs1.call.time_s));
    CHECK(rs2.step_exposed_s() == Approx(4 * rs2.call.time_s));
    CHECK(z2.step.time_s > z1.step.time_s);
}

TEST_CASE("bucketed DP overlap: errors name the field") {
    auto parse = [](const char* overlap) {
        return parse_scenario(json::parse(std::string(R"({"model":"gpt-7.5b","cluster":"dgx-h100","parallel":{"tp":8,"dp":4},
            "training":{"overlap":)") + overlap +
                                          "}}"));
    };
    CHECK_THROWS_WITH(parse(R"({"dp":0.5,"grad_reduce":true})"), Catch::Contains("training.overlap.dp"));
    CHECK_THROWS_WITH(parse(R"({"bucket_elems":1e7})"), Catch::Contains("training.overlap.bucket_elems"));
    CHECK_THROWS_WITH(parse(R"({"grad_reduce":1})"), Catch::Contains("training.overlap.grad_reduce"));
    CHECK_NOTHROW(parse(R"({"grad_reduce":true,"param_gather":true,"bucket_elems":1e7})"));
}

TEST_CASE("the planner applies the same bucket rule: its entries' reports reproduce their times") {
    plan_options o;
    o.top = 8;
    o.gpus = 256;
    const auto s = parse_scenario(json::parse(R"({"model":"deepseek-v3","cluster":{"preset":"dgx-h100","nodes":2},
        "parallel":{"dp":8,"pp":2},"training":{"seq_len":4096,"global_batch":64,"schedule":"dualpipe",
        "overlap":{"grad_reduce":true,"param_gather":true}}})"));
    const plan_result r = run_plan(s, o);
    REQUIRE_FALSE(r.top.empty());
    for (const auto& e : r.top) CHECK(build_report(parse_scenario(e.scenario)).step.time_s == Approx(e.time_s).epsilon(1e-9));
    for (const auto& e : r.pareto) CHECK(build_report(parse_scenario(e.scenario)).step.time_s == Approx(e.time_s).epsilon(1e-9));
}

namespace {

// One forward and one backward pass of L layers as two streams run them: the gather of layer i+1 is
// issued when layer i starts (one layer ahead), a layer starts when its gather is done; in backward
// each layer's gather and the previous (deeper) layer's reduce-scatter share the link.
double simulated_zero3_exposed(double g, double r, int layers, double f, double b) {
    double start = g, link = g;  // forward: the first gather has nothing to run under
    for (int i = 1; i < layers; ++i) {
        link = std::max(link, start) + g;
        start = std::max(start + f, link);
    }
    const double fwd_end = start + f;
    // Backward: the deepest layer's gather is taken as done (FSDP's backward prefetch issues it under
    // the loss), then each layer's exchange (its gather, the deeper layer's reduce-scatter) runs
    // under the layer before it.
    double bstart = fwd_end, blink = fwd_end;
    for (int i = 1; i < layers; ++i) {
        blink = std::max(blink, bstart) + g + r;
        bstart = std::max(bstart + b, blink);
    }
    const double end = std::max(bstart + b, blink) + r;  // the last reduce-scatter after the last backward
    return end - layers * (f + b);
}

}  // namespace

TEST_CASE("ZeRO-3 prefetch: the closed form equals the two-stream recurrence") {
    overlap_spec both;
    both.param_gather = both.grad_reduce = true;
    for (const int L : {1, 2, 7, 32})
        for (const double g : {0.5, 1.0, 3.0})
            for (const double r : {0.5, 2.0})
                for (const double f : {0.2, 1.0, 4.0}) {
                    const double b = 2.5 * f;
                    INFO("L " << L << " g " << g << " r " << r << " f " << f);
                    CHECK(zero3_exposed_s(both, g, r, L, f, b) == Approx(simulated_zero3_exposed(g, r, L, f, b)));
                }
    // A switch that is off leaves its calls exposed: both off is the whole exchange, 2L gathers + L reduce-scatters.
    CHECK(zero3_exposed_s({}, 1.0, 2.0, 8, 100, 100) == Approx(8 * (2 * 1.0 + 2.0)));
    overlap_spec gather_only;
    gather_only.param_gather = true;
    CHECK(zero3_exposed_s(gather_only, 1.0, 2.0, 8, 100, 100) == Approx(1.0 + 8 * 2.0));
}

TEST_CASE("ZeRO-3 under param_gather and grad_reduce: per-layer exchanges hide under the layers' compute") {
    // GPT-3 175B shape on 992 A100 (OPT-175B's FSDP + TP 8 layout, arXiv 2205.01068 section 2.4), one
    // micro-batch of 8 sequences: per-layer compute far exceeds each layer's gather.
    const auto at =
        [](const char* overlap) {
            return build_report(parse_scenario(json::parse(std::string(R"({"model":"gpt-175b","cluster":"dgx-a100-80gb",
            "parallel":{"dp":124,"tp":8,"zero":3},"training":{"seq_len":2048,"micro_batch":8,"global_batch":992,
            "recompute":"full","overlap":)") + overlap + "}}")));
        };
    const report off = at("{}"), on = at(R"({"param_gather":true,"grad_reduce":true})");
    const comm_item &g_off = item(off, "AllGather per layer"), &g_on = item(on, "AllGather per layer"), &r_on = item(on, "ReduceScatter per layer");
    CHECK(g_off.overlap == 0);
    // With ample compute only the first gather and the last reduce-scatter stay exposed.
    REQUIRE(g_on.call.time_s < on.compute.fwd_s / 96);
    CHECK(g_on.step_exposed_s() + r_on.step_exposed_s() == Approx(g_on.call.time_s + r_on.call.time_s).epsilon(1e-9));
    CHECK(on.step.time_s < off.step.time_s);
    // The planner times ZeRO-3 plans by the same rule.
    plan_options o;
    o.top = 4;
    o.fixed = 1u << static_cast<unsigned>(plan_knob::zero);
    const auto s = parse_scenario(json::parse(R"({"model":"gpt-7.5b","cluster":"dgx-h100","parallel":{"dp":16,"zero":3},
        "training":{"seq_len":4096,"global_batch":64,"overlap":{"grad_reduce":true,"param_gather":true}}})"));
    const plan_result r = run_plan(s, o);
    REQUIRE_FALSE(r.top.empty());
    for (const auto& e : r.top) {
        CHECK(e.choice.zero == 3);
        CHECK(build_report(parse_scenario(e.scenario)).step.time_s == Approx(e.time_s).epsilon(1e-9));
    }
}
