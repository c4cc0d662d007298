// Robust fits on synthetic timings with known alpha and beta, noise and outliers.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "tslab/robust_fit.hpp"

using tslab::line_fit;

namespace {

// A sweep like the binary's: 8 B .. 1 GiB by factors of 2, t = alpha + beta·S.
struct synthetic {
    std::vector<double> x, y;
};

synthetic sweep(double alpha, double beta, double noise, unsigned seed) {
    synthetic s;
    std::mt19937 rng(seed);
    std::normal_distribution<double> n(0.0, noise);
    for (double b = 8; b <= double(1 << 30); b *= 2) {
        s.x.push_back(b);
        s.y.push_back((alpha + beta * b) * (1.0 + n(rng)));  // relative noise, as timers show
    }
    return s;
}

}  // namespace

TEST_CASE("median of odd and even samples") {
    CHECK(3.0 == tslab::median({5, 1, 3}));
    CHECK(2.5 == tslab::median({4, 1, 3, 2}));
    CHECK(0.0 == tslab::median({}));
}

TEST_CASE("exact data is fitted exactly") {
    // 5 µs latency, 20 GB/s: closed form t = 5e-6 + S / 20e9.
    const auto s = sweep(5e-6, 1.0 / 20e9, 0.0, 1);
    const line_fit f = tslab::robust_alpha_beta(s.x, s.y);
    REQUIRE(f.ok);
    CHECK(f.alpha == Approx(5e-6).epsilon(1e-9));
    CHECK(f.beta == Approx(1.0 / 20e9).epsilon(1e-9));
    CHECK(f.rms_rel < 1e-9);
    CHECK(f.outliers == 0);
    CHECK(f.rel_residuals.size() == s.x.size());
}

TEST_CASE("3 % noise: alpha within 10 %, beta within 2 %") {
    const auto s = sweep(5e-6, 1.0 / 20e9, 0.03, 42);
    const line_fit f = tslab::robust_alpha_beta(s.x, s.y);
    CHECK(f.alpha == Approx(5e-6).epsilon(0.10));
    CHECK(f.beta == Approx(1.0 / 20e9).epsilon(0.02));
    CHECK(f.rms_rel == Approx(0.03).epsilon(0.5));  // the residuals show the noise we put in
}

TEST_CASE("outliers (5x and 0.2x spikes) do not move the fit") {
    auto s = sweep(5e-6, 1.0 / 20e9, 0.02, 7);
    // Four wild points out of 28: a 5× slow small message, two slow large ones, one too fast.
    for (std::size_t i : {2u, 17u, 24u}) s.y[i] *= 5.0;
    s.y[10] *= 0.2;
    const line_fit f = tslab::robust_alpha_beta(s.x, s.y);
    CHECK(f.alpha == Approx(5e-6).epsilon(0.10));
    CHECK(f.beta == Approx(1.0 / 20e9).epsilon(0.02));
    CHECK(f.outliers >= 4);
    CHECK(std::abs(f.rel_residuals[24]) > 3.0);  // (5t − t)/t = 4 for the spiked point

    // Plain least squares on the same data is pulled far off: the test data do bite.
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = static_cast<double>(s.x.size());
    for (std::size_t i = 0; i < s.x.size(); ++i) sx += s.x[i], sy += s.y[i], sxx += s.x[i] * s.x[i], sxy += s.x[i] * s.y[i];
    const double ols_beta = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    const double ols_alpha = (sy - ols_beta * sx) / n;
    CHECK(std::abs(ols_alpha / 5e-6 - 1.0) > 10.0);
}

TEST_CASE("Theil-Sen ignores a single wild point on a straight line") {
    // y = 2 + 3x on x = 0..9, with y(5) replaced by 1000.
    std::vector<double> x, y;
    for (int i = 0; i < 10; ++i) x.push_back(i), y.push_back(2.0 + 3.0 * i);
    y[5] = 1000;
    const line_fit f = tslab::theil_sen(x, y);
    CHECK(f.beta == Approx(3.0));
    CHECK(f.alpha == Approx(2.0));
}

TEST_CASE("negative slopes and intercepts are clamped to zero") {
    // Time falling with size is noise: beta is a non-negative inverse bandwidth.
    const line_fit f = tslab::robust_alpha_beta({1, 2, 3, 4}, {4, 3, 2, 1});
    CHECK(f.beta == 0.0);
    CHECK(f.alpha == Approx(2.5));
    // One distinct size: a pure latency.
    const line_fit g = tslab::robust_alpha_beta({8, 8, 8}, {1e-6, 1e-6, 1e-6});
    CHECK(g.beta == 0.0);
    CHECK(g.alpha == Approx(1e-6));
}

TEST_CASE("no samples give a fit that says so") { CHECK_FALSE(tslab::robust_alpha_beta({}, {}).ok); }
