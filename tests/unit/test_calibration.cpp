// The calibration profile: fitting from samples, exact JSON round trip, clear errors, use in a scenario.
#include <catch2/catch.hpp>

#include "tslab/calibration.hpp"
#include "tslab/errors.hpp"
#include "tslab/report.hpp"
#include "tslab/scenario.hpp"

using namespace tslab;

namespace {

// A profile whose samples follow closed forms: AllReduce over 2 ranks with t = 5 µs + S/20 GB/s,
// BF16 GEMMs with time = (x + 2e10) / 800e12, a 1 GiB device copy at 2 TB/s.
calibration_profile synthetic_profile() {
    calibration_profile p;
    p.created = "2026-12-01T09:30:00Z";
    p.host = "node-a";
    p.backend = "cuda";
    p.ranks = 8, p.nodes = 1;
    p.devices = {{"NVIDIA H200", 143e9, 8}};
    p.software = {{"cuda_runtime", "13.0"}, {"nccl", "2.28.3"}};
    collective_fit c;
    c.op = collective_op::allreduce, c.ranks = 2, c.scope = link_scope::intra, c.timer = "cuda_events";
    for (std::int64_t b = 8; b <= (1LL << 30); b *= 4) {
        const double t = 5e-6 + static_cast<double>(b) / 20e9;
        c.samples.push_back({b, t, b / t, b / t, t * 0.99, t * 1.01});
    }
    p.collectives.push_back(c);
    for (std::int64_t n : {256, 1024, 4096, 8192}) {
        gemm_sample g{n, n, n, "bf16", 0, 0};
        g.time_s = (g.flops() + 2e10) / 800e12;
        g.flops_per_s = g.flops() / g.time_s;
        p.gemm.samples.push_back(g);
    }
    p.memory.device_copy_Bps = 2e12;
    p.memory.samples.push_back({"d2d", 1LL << 30, (1LL << 30) / 2e12, 2e12});
    fit_calibration(p);
    return p;
}

std::string message_of(const std::string& text) {
    try {
        parse_calibration_text(text, "");
    } catch (const input_error& e) {
        return e.what();
    }
    return "no error";
}

json valid_json() { return calibration_to_json(synthetic_profile()); }

}  // namespace

TEST_CASE("fit_calibration recovers the closed-form alpha, beta and GEMM curve") {
    const auto p = synthetic_profile();
    const collective_fit* c = p.find(collective_op::allreduce, 2, link_scope::intra);
    REQUIRE(c != nullptr);
    CHECK(c->alpha_s == Approx(5e-6).epsilon(1e-6));
    CHECK(c->beta_s_per_byte == Approx(1.0 / 20e9).epsilon(1e-6));
    const gemm_curve* g = p.gemm.curve("bf16");
    REQUIRE(g != nullptr);
    CHECK(g->flops_per_s_max == Approx(800e12).epsilon(1e-6));
    CHECK(g->x_half_flops == Approx(2e10).epsilon(1e-6));
    // At x = x_half the curve gives half the asymptotic rate (definition of x_half).
    CHECK(g->flops_per_s(2e10) == Approx(400e12).epsilon(1e-6));
    CHECK(g->efficiency(2e10, 989e12) == Approx(400.0 / 989.0).epsilon(1e-6));
}

TEST_CASE("profile JSON round-trips exactly") {
    const std::string once = calibration_json_text(synthetic_profile());
    const std::string twice = calibration_json_text(parse_calibration_text(once));
    CHECK(once == twice);
}

TEST_CASE("source names the device, the ranks and the date") {
    auto p = synthetic_profile();
    CHECK(p.source() == "calibrated: NVIDIA H200 ×8, 2026-12-01");
    p.complete = false;
    CHECK(p.source() == "calibrated: NVIDIA H200 ×8, 2026-12-01, incomplete");
}

TEST_CASE("the fitted link gives bus bandwidth factor(n)/beta and latency alpha") {
    const auto l = link_from_profile(synthetic_profile(), link_scope::intra);
    REQUIRE(l.has_value());
    // AllReduce over 2 ranks: busbw factor 2(n−1)/n = 1, so bandwidth = 1/beta = 20 GB/s.
    CHECK(l->bandwidth_Bps == Approx(20e9).epsilon(1e-6));
    CHECK(l->latency_s == Approx(5e-6).epsilon(1e-6));
    CHECK_FALSE(link_from_profile(synthetic_profile(), link_scope::inter).has_value());
}

TEST_CASE("malformed, truncated and wrong-schema profiles give clear errors") {
    const std::string text = valid_json().dump();
    CHECK_THAT(message_of(text.substr(0, text.size() / 2)), Catch::Contains("truncated JSON"));
    CHECK_THAT(message_of("{\"schema\": tslab}"), Catch::Contains("malformed JSON"));
    CHECK(message_of("[1, 2]") == "$: expected an object, got an array");
    json j = valid_json();
    j["schema"] = "tslab/scenario@1";
    CHECK(message_of(j.dump()) == "schema: \"tslab/scenario@1\" is not supported; expected tslab/calibration@1");
    j = valid_json();
    j.erase("schema");
    CHECK(message_of(j.dump()) == "schema: missing required field");
}

TEST_CASE("missing fields, negative numbers and bad names name their path") {
    json j = valid_json();
    j["collectives"][0].erase("alpha_s");
    CHECK(message_of(j.dump()) == "collectives[0].alpha_s: missing required field");
    j = valid_json();
    j["collectives"][0]["samples"][3]["time_s"] = -1;
    CHECK(message_of(j.dump()) == "collectives[0].samples[3].time_s: must not be negative, got -1");
    j = valid_json();
    j["memory"]["device_copy_Bps"] = -2e12;
    CHECK(message_of(j.dump()) == "memory.device_copy_Bps: must not be negative, got -2e+12");
    j = valid_json();
    j["collectives"][0]["op"] = "allredcue";
    CHECK_THAT(message_of(j.dump()),
               Catch::StartsWith("collectives[0].op: unknown value \"allredcue\"") && Catch::Contains("did you mean allreduce?"));
    j = valid_json();
    j["gemm"]["curves"][0]["fit"]["rel_residuals"].erase(0);
    CHECK(message_of(j.dump()) == "gemm.curves[0].fit.rel_residuals: has 3 entries for 4 samples");
    j = valid_json();
    j["memory"]["hbm_Bps"] = 1;
    CHECK(message_of(j.dump()) == "memory.hbm_Bps: unknown field");
    j = valid_json();
    j["collectives"].push_back(j["collectives"][0]);
    CHECK(message_of(j.dump()) == "collectives[1]: duplicate entry for allreduce × 2 ranks × intra (also at index 0)");
}

TEST_CASE("cluster.calibration replaces the preset's figures and names its source") {
    json doc = {{"cluster", {{"preset", "dgx-h100"}}}};
    const scenario plain = parse_scenario(doc);
    CHECK(plain.cluster.source == "preset: dgx-h100");
    doc["cluster"]["calibration"] = valid_json();
    const scenario s = parse_scenario(doc);
    REQUIRE(s.cluster.profile.has_value());
    CHECK(s.cluster.source == "calibrated: NVIDIA H200 ×8, 2026-12-01");
    CHECK(s.cluster.intra_node.bandwidth_Bps == Approx(20e9).epsilon(1e-6));
    CHECK(s.cluster.intra_node.latency_s == Approx(5e-6).epsilon(1e-6));
    CHECK(s.cluster.inter_node.bandwidth_Bps == plain.cluster.inter_node.bandwidth_Bps);  // nothing measured there
    CHECK(s.cluster.gpu.hbm_bandwidth_Bps == Approx(4e12));  // 2 × the copy rate: read + write
    const json r = report_to_json(build_report(s));
    CHECK(r["scenario"]["source"] == "calibrated: NVIDIA H200 ×8, 2026-12-01");
}

TEST_CASE("a bad cluster.calibration is reported under its scenario path") {
    json doc = {{"cluster", {{"preset", "dgx-h100"}, {"calibration", valid_json()}}}};
    doc["cluster"]["calibration"]["ranks"] = -8;
    try {
        parse_scenario(doc);
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(std::string(e.what()) == "cluster.calibration.ranks: must not be negative, got -8");
    }
    doc["cluster"]["calibration"] = "profile.json";
    CHECK_THROWS_WITH(parse_scenario(doc), Catch::Contains("no profile \"profile.json\" is loaded"));
}

TEST_CASE("a calibration GEMM curve replaces the preset efficiency in the compute model and the report says so") {
    json doc = {{"model", "llama3-8b"}, {"cluster", {{"preset", "dgx-h100"}, {"calibration", valid_json()}}}};
    const scenario s = parse_scenario(doc);
    gemm_call g;
    g.m = 4096, g.n = 4096, g.k = 4096;
    // The synthetic profile's BF16 GEMMs take (x + 2e10) / 800e12 seconds for x FLOPs standalone; inside a
    // step the in-step share applies to a measured curve as to a preset one (gemm_rate.hpp).
    CHECK(gemm_time_s(s.cluster.gpu, dtype::bf16, g) == Approx((g.flops() + 2e10) / 800e12 / s.cluster.gpu.gemm.in_step).epsilon(1e-6));
    const json j = report_to_json(build_report(s));
    CHECK_THAT(j["step"]["gemm_model"].get<std::string>(), Catch::StartsWith("bf16: calibrated curve, 800 TFLOP/s max"));
    const scenario plain = parse_scenario(json{{"model", "llama3-8b"}, {"cluster", "dgx-h100"}});
    CHECK_THAT(report_to_json(build_report(plain))["step"]["gemm_model"].get<std::string>(), Catch::StartsWith("bf16: preset curve max 0.8029"));
}
