// Mismatch warnings between a calibration profile and a cluster, and the provenance block's round trip.
#include <catch2/catch.hpp>

#include "tslab/calibration_summary.hpp"
#include "tslab/calibration_warnings.hpp"
#include "tslab/errors.hpp"

using namespace tslab;

namespace {

calibration_profile h100_profile(std::int64_t nodes, std::int64_t intra_ranks) {
    calibration_profile p;
    p.backend = "cuda", p.created = "2026-12-01T00:00:00Z", p.host = "node-a";
    p.ranks = nodes * 8, p.nodes = nodes;
    p.devices = {{"NVIDIA H100 80GB HBM3", 80e9, p.ranks}};
    collective_fit c;
    c.op = collective_op::allreduce, c.ranks = intra_ranks, c.scope = link_scope::intra, c.timer = "cuda_events";
    for (std::int64_t b = 1 << 20; b <= (1 << 26); b *= 4) c.samples.push_back({b, 1e-5 + b / 1e11, 0, 0, 1e-5 + b / 1e11, 1e-5 + b / 1e11});
    p.collectives.push_back(c);
    fit_calibration(p);
    return p;
}

const scenario& dgx(const char* preset, int nodes) {
    static std::map<std::string, scenario> cache;
    const std::string key = std::string(preset) + std::to_string(nodes);
    if (!cache.count(key))
        cache[key] = parse_scenario_text(std::string(R"({"schema": "tslab/scenario@1", "model": "gpt-1.7b", "parallel": {"dp": )") +
                                         std::to_string(8 * nodes) + R"(}, "cluster": {"preset": ")" + preset + R"(", "nodes": )" +
                                         std::to_string(nodes) + "}}");
    return cache.at(key);
}

bool has(const std::vector<std::string>& ws, const std::string& part) {
    for (const auto& w : ws)
        if (w.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("gpu_model_token reads the model out of CUDA and preset names") {
    CHECK(gpu_model_token("NVIDIA H100 80GB HBM3") == "H100");
    CHECK(gpu_model_token("H100-SXM5-80GB") == "H100");
    CHECK(gpu_model_token("A100-SXM4-80GB") == "A100");
    CHECK(gpu_model_token("NVIDIA B200") == "B200");
    CHECK(gpu_model_token("AMD Instinct MI300X") == "MI300X");
    CHECK(gpu_model_token("Intel(R) Xeon(R) Processor") == "");
}

TEST_CASE("a matching profile raises no warning — another GPU, fewer nodes or smaller groups do") {
    const scenario& h100x2 = dgx("dgx-h100", 2);
    CHECK(calibration_warnings(h100_profile(2, 8), &h100x2.cluster, 16).empty());
    const scenario& a100 = dgx("dgx-a100-80gb", 2);
    CHECK(has(calibration_warnings(h100_profile(2, 8), &a100.cluster, 16), "but the cluster's GPU is A100-SXM4-80GB"));
    CHECK(has(calibration_warnings(h100_profile(1, 8), &h100x2.cluster, 16), "measured 1 node(s) but the cluster has 2"));
    CHECK(has(calibration_warnings(h100_profile(2, 4), &h100x2.cluster, 16), "largest intra-node group has 4 ranks"));
}

TEST_CASE("a CPU or incomplete profile warns without a cluster, and the summary carries the warnings") {
    calibration_profile p = h100_profile(1, 8);
    p.backend = "cpu", p.complete = false, p.provenance.stop_reason = "SIGINT on rank 1";
    const auto ws = calibration_warnings(p, nullptr);
    REQUIRE(ws.size() == 2);
    CHECK(ws[0] == "calibration profile is incomplete (SIGINT on rank 1): some probes were not measured");
    const json s = json::parse(calibration_summary_json_text(calibration_json_text(p)));
    CHECK(s["warnings"].size() == 2);
}

TEST_CASE("provenance survives the JSON round trip — a profile without it has none") {
    calibration_profile p = h100_profile(2, 8);
    p.provenance.cluster_name = "eos", p.provenance.job_id = "4242", p.provenance.node_list_hash = "00ff";
    p.provenance.hosts = {"eos-001", "eos-002"}, p.provenance.gpu_uuids = {"GPU-1", "GPU-2"};
    p.provenance.nccl_env = {{"NCCL_IB_HCA", "mlx5"}};
    p.provenance.clocks = {{0, "GPU-1", 1980, 1980, 700}};
    const calibration_profile q = parse_calibration_text(calibration_json_text(p));
    CHECK(q.provenance.cluster_name == "eos");
    CHECK(q.provenance.hosts == p.provenance.hosts);
    CHECK(q.provenance.nccl_env == p.provenance.nccl_env);
    REQUIRE(q.provenance.clocks.size() == 1);
    CHECK(q.provenance.clocks[0].power_limit_w == 700);
    const calibration_profile bare = h100_profile(1, 8);
    CHECK(calibration_to_json(bare).contains("provenance") == false);
    CHECK_THROWS_WITH(parse_calibration_text(R"({"schema": "tslab/calibration@1"})"
                                             ""),
                      Catch::Contains("missing required field"));
}
