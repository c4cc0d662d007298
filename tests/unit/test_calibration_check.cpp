// Predicted versus measured per probe: by the profile's own fits and by a scenario's cluster.
#include <catch2/catch.hpp>

#include "tslab/calibration_check.hpp"

using namespace tslab;

namespace {

// Two AllReduce samples on 4 ranks: t = 10 µs + S/40 GB/s exactly, and one 1 GiB copy at 1 TB/s.
calibration_profile two_samples() {
    calibration_profile p;
    p.created = "2026-12-01T00:00:00Z", p.backend = "cpu", p.ranks = 4;
    collective_fit c;
    c.op = collective_op::allreduce, c.ranks = 4, c.scope = link_scope::intra, c.timer = "steady_clock";
    for (std::int64_t b : {1LL << 20, 1LL << 26}) {
        const double t = 10e-6 + static_cast<double>(b) / 40e9;
        c.samples.push_back({b, t, b / t, 1.5 * b / t, t, t});
    }
    p.collectives.push_back(c);
    p.memory.samples.push_back({"d2d", 1LL << 30, (1LL << 30) / 1e12, 1e12});
    p.memory.device_copy_Bps = 1e12;
    fit_calibration(p);
    return p;
}

}  // namespace

TEST_CASE("the profile's own fits predict exact samples with zero error") {
    const check_report r = check_profile(two_samples(), nullptr);
    REQUIRE(r.rows.size() == 3);
    CHECK(r.predicted_by == "profile fits");
    for (const auto& row : r.rows) CHECK(std::abs(row.error_rel) < 1e-6);
    CHECK(r.rows[0].probe == "allreduce ×4 intra");
}

TEST_CASE("a cluster predicts by latency + S·busbw_factor/bandwidth") {
    cluster_spec c;
    c.source = "preset: test";
    c.intra_node = {80e9, 10e-6};  // busbw 80 GB/s
    c.gpu.hbm_bandwidth_Bps = 4e12;
    const check_report r = check_profile(two_samples(), &c);
    REQUIRE(r.rows.size() == 3);
    // AllReduce over 4 ranks: factor 2·3/4 = 1.5, so t = 10 µs + 1.5 S / 80 GB/s = 10 µs + S / 53.3 GB/s,
    // against a measured 10 µs + S / 40 GB/s.
    const double s = 1 << 26;
    const double predicted = 10e-6 + 1.5 * s / 80e9, measured = 10e-6 + s / 40e9;
    CHECK(r.rows[1].predicted_s == Approx(predicted));
    CHECK(r.rows[1].error_rel == Approx((predicted - measured) / measured));
    // The copy: HBM 4 TB/s moves 2 TB/s of copied bytes, measured 1 TB/s → −50 %.
    CHECK(r.rows[2].error_rel == Approx(-0.5));
    CHECK(r.max_abs_error == Approx(0.5));
    const json j = check_to_json(r);
    CHECK(j["probes"] == 3);
    CHECK(j["rows"][2]["probe"] == "memory d2d");
}
