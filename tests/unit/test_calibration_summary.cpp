// The figures a profile replaces and the lab's summary JSON: closed-form samples, errors with paths.
#include <catch2/catch.hpp>

#include "tslab/calibration_summary.hpp"
#include "tslab/errors.hpp"
#include "tslab/scenario.hpp"

using namespace tslab;

namespace {

// Samples that follow closed forms: AllReduce over 4 ranks intra with t = 3 µs + S/(30 GB/s),
// SendRecv across 2 nodes with t = 8 µs + S/(12.5 GB/s), BF16 GEMMs time = (x + 1e10)/500e12,
// device copy 1.5 TB/s, pinned host copies 50 GB/s up and 40 GB/s down.
calibration_profile closed_form_profile() {
    calibration_profile p;
    p.created = "2026-12-01T09:30:00Z";
    p.host = "node-a";
    p.backend = "cuda";
    p.ranks = 8, p.nodes = 2;
    p.devices = {{"NVIDIA H200", 143e9, 8}};
    auto sweep = [](collective_op op, std::int64_t n, link_scope sc, double alpha, double bw) {
        collective_fit c;
        c.op = op, c.ranks = n, c.scope = sc, c.timer = "cuda_events";
        for (std::int64_t b = 1024; b <= (1LL << 28); b *= 4) {
            const double t = alpha + static_cast<double>(b) / bw;
            c.samples.push_back({b, t, b / t, b / t, t, t});
        }
        return c;
    };
    p.collectives.push_back(sweep(collective_op::allreduce, 4, link_scope::intra, 3e-6, 30e9));
    p.collectives.push_back(sweep(collective_op::sendrecv, 2, link_scope::inter, 8e-6, 12.5e9));
    for (std::int64_t n : {512, 2048, 8192}) {
        gemm_sample g{n, n, n, "bf16", 0, 0};
        g.time_s = (g.flops() + 1e10) / 500e12;
        g.flops_per_s = g.flops() / g.time_s;
        p.gemm.samples.push_back(g);
    }
    p.memory.device_copy_Bps = 1.5e12;
    p.memory.host_to_device_Bps = 50e9;
    p.memory.device_to_host_Bps = 40e9;
    fit_calibration(p);
    return p;
}

}  // namespace

TEST_CASE("figures_from_profile: links from factor(n)/beta, HBM twice the copy rate, slower host direction") {
    const calibrated_figures f = figures_from_profile(closed_form_profile());
    REQUIRE(f.intra_node);
    // nccl-tests AllReduce busbw factor 2(n-1)/n = 1.5 at n = 4: bus bandwidth 1.5 × 30 GB/s.
    CHECK(f.intra_node->bandwidth_Bps == Approx(45e9).epsilon(1e-6));
    CHECK(f.intra_node->latency_s == Approx(3e-6).epsilon(1e-6));
    REQUIRE(f.inter_node);
    CHECK(f.inter_node->bandwidth_Bps == Approx(12.5e9).epsilon(1e-6));  // SendRecv factor 1
    CHECK(f.inter_node->latency_s == Approx(8e-6).epsilon(1e-6));
    REQUIRE(f.hbm_bandwidth_Bps);
    CHECK(*f.hbm_bandwidth_Bps == Approx(3e12));
    REQUIRE(f.host_bandwidth_Bps);
    CHECK(*f.host_bandwidth_Bps == Approx(40e9));
    CHECK(f.gemm_dtypes == std::vector<std::string>{"bf16"});
}

TEST_CASE("figures_from_profile: a host-only CPU profile replaces no device figure") {
    calibration_profile p;
    p.backend = "cpu";
    p.memory.host_memcpy_Bps = 10e9;
    p.memory.host_to_device_Bps = 10e9;  // one direction alone does not make a host link
    const calibrated_figures f = figures_from_profile(p);
    CHECK_FALSE(f.intra_node);
    CHECK_FALSE(f.inter_node);
    CHECK_FALSE(f.hbm_bandwidth_Bps);
    CHECK_FALSE(f.host_bandwidth_Bps);
    CHECK(f.gemm_dtypes.empty());
}

TEST_CASE("the summary names the source and lists what is replaced, in a fixed order") {
    const calibration_profile p = closed_form_profile();
    const json s = json::parse(calibration_summary_json_text(calibration_json_text(p)));
    CHECK(s["schema"] == "tslab/calibration-summary@1");
    CHECK(s["source"] == "calibrated: NVIDIA H200 ×8, 2026-12-01");
    CHECK(s["ranks"] == 8);
    CHECK(s["nodes"] == 2);
    CHECK(s["complete"] == true);
    CHECK(s["probes"]["collective_fits"] == 2);
    CHECK(s["probes"]["collective_samples"] == 20);  // 2^10 .. 2^28 B by 4×: 10 sizes per sweep
    CHECK(s["probes"]["gemm_samples"] == 3);
    const json& r = s["replaces"];
    REQUIRE(r.size() == 5);
    CHECK(r[0]["id"] == "intra_node");
    CHECK(r[0]["from"] == "allreduce ×4 intra");
    CHECK(r[0]["bandwidth_Bps"].get<double>() == Approx(45e9).epsilon(1e-6));
    CHECK(r[1]["id"] == "inter_node");
    CHECK(r[2]["path"] == "cluster.gpu.hbm_bandwidth_Bps");
    CHECK(r[3]["path"] == "cluster.host.bandwidth_Bps");
    CHECK(r[4]["id"] == "gemm");
    CHECK(r[4]["flops_per_s_max"].get<double>() == Approx(500e12).epsilon(1e-6));
    CHECK(r[4]["in_report"] == true);  // the compute model uses the curve (compute.hpp)
}

TEST_CASE("the summary's figures are the ones a scenario's cluster ends up with") {
    const calibration_profile p = closed_form_profile();
    json doc = {{"cluster", {{"preset", "dgx-h100"}, {"calibration", calibration_to_json(p)}}}};
    const scenario s = parse_scenario(doc);
    CHECK(s.cluster.source == "calibrated: NVIDIA H200 ×8, 2026-12-01");
    CHECK(s.cluster.intra_node.bandwidth_Bps == Approx(45e9).epsilon(1e-6));
    CHECK(s.cluster.inter_node.latency_s == Approx(8e-6).epsilon(1e-6));
    CHECK(s.cluster.gpu.hbm_bandwidth_Bps == Approx(3e12));
    CHECK(s.cluster.host.bandwidth_Bps == Approx(40e9));
}

TEST_CASE("a bad profile text throws input_error naming the path inside the profile") {
    json doc = calibration_to_json(closed_form_profile());
    const std::string good = doc.dump();
    CHECK_THROWS_WITH(calibration_summary_json_text(good.substr(0, good.size() / 2)), Catch::Contains("truncated JSON"));
    CHECK_THROWS_WITH(calibration_summary_json_text("{\"schema\": \"tslab/scenario@1\"}"),
                      Catch::StartsWith("schema: \"tslab/scenario@1\" is not supported"));
    doc["collectives"][1]["alpha_s"] = -1;
    CHECK_THROWS_WITH(calibration_summary_json_text(doc.dump()), Catch::StartsWith("collectives[1].alpha_s: must not be negative"));
}
