// GEMM rates (gemm_rate.hpp): per-GPU, per-dtype ceilings from the MAMF tables, the per-call time
// refitted to OpenXLA's measured H100 table, the FlashAttention curve refitted to FA3's published
// forward throughput, FP8 speed-ups from the curves, and calibration taking precedence.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "tslab/compute.hpp"
#include "tslab/context.hpp"

using namespace tslab;

namespace {

// Data rows of one of tests/data/gemm/*.csv (comment lines and the header skipped).
std::vector<std::vector<double>> csv_rows(const std::string& name) {
    std::ifstream f(std::string(TSLAB_SOURCE_DIR) + "/tests/data/gemm/" + name);
    std::vector<std::vector<double>> out;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#' || !std::isdigit(static_cast<unsigned char>(line[0]))) continue;
        std::vector<double> row;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');) row.push_back(std::stod(cell));
        out.push_back(row);
    }
    return out;
}

gpu_spec gpu_of(const char* cluster) { return parse_scenario({{"cluster", cluster}}).cluster.gpu; }

}  // namespace

TEST_CASE("Each GPU preset has its own measured BF16 ceiling (MAMF table), not the A100's", "[gemm]") {
    // stas00/ml-engineering, compute/accelerator/README.md, MAMF BF16 rows: A100 SXM 271.2 of 312,
    // H100 SXM 794.5 (H200 the same), B200 SXM 1745.0 of 2250 TFLOP/s.
    CHECK(gpu_of("dgx-a100-80gb").gemm.bf16.max == Approx(271.2 / 312).epsilon(1e-12));
    CHECK(gpu_of("dgx-h100").gemm.bf16.max == Approx(794.5 / 989.5).epsilon(1e-12));
    CHECK(gpu_of("hgx-h200").gemm.bf16.max == Approx(794.5 / 989.5).epsilon(1e-12));
    CHECK(gpu_of("dgx-b200").gemm.bf16.max == Approx(1745.0 / 2250).epsilon(1e-12));
    // FP8 rows: H100 SXM 1402.6, H200 SXM 1453.4 of 1979; B200 3432.5 of 4500. The A100 has no FP8.
    CHECK(gpu_of("dgx-h100").gemm.fp8.max == Approx(1402.6 / 1979).epsilon(1e-12));
    CHECK(gpu_of("hgx-h200").gemm.fp8.max == Approx(1453.4 / 1979).epsilon(1e-12));
    CHECK(gpu_of("dgx-b200").gemm.fp8.max == Approx(3432.5 / 4500).epsilon(1e-12));
    CHECK(gpu_of("dgx-a100-80gb").gemm.fp8.max == 0);
}

TEST_CASE("The per-call time refits to OpenXLA's measured H100 BF16 table", "[gemm]") {
    // t(x) = overhead + x / R with R the H100 MAMF 794.5 TFLOP/s; least squares in log time over the
    // 72 rows of tests/data/gemm/xla_sm90_bf16.csv, overhead on a 0.1 µs grid.
    const auto rows = csv_rows("xla_sm90_bf16.csv");
    REQUIRE(rows.size() == 72);
    const double R = 794.5e12;
    auto rms = [&](double t0) {
        double e = 0;
        for (const auto& r : rows) {
            const double x = 2 * r[0] * r[1] * r[2] * r[3], measured = x / (r[4] * 1e12);
            e += std::pow(std::log((t0 + x / R) / measured), 2);
        }
        return std::sqrt(e / static_cast<double>(rows.size()));
    };
    double best = 0, best_rms = 1e300;
    for (int i = 1; i <= 300; ++i)
        if (rms(i * 1e-7) < best_rms) best_rms = rms(i * 1e-7), best = i * 1e-7;
    CHECK(gpu_of("dgx-h100").gemm.call_overhead_s == Approx(best).margin(1e-9));
    CHECK(best_rms < 0.13);  // the two-parameter form follows the table within ~13% (rms in log time)
    // The knee follows: half_flops = overhead × peak × max.
    const gpu_spec g = gpu_of("dgx-h100");
    CHECK(half_flops_of(g.gemm.bf16, g.gemm, g.peak_flops(dtype::bf16)) == Approx(best * 794.5e12).epsilon(1e-9));
}

TEST_CASE("The FlashAttention curve refits to FA3's forward throughput on H100", "[gemm][context]") {
    // pytorch/benchmark PR #2391: FA3 forward, head dim 128, B·S = 16k: 430.32 ... 620.73 TFLOP/s.
    const auto rows = csv_rows("fa3_h100_fwd_hd128.csv");
    REQUIRE(rows.size() == 6);
    const double peak = 989.5e12;
    double best_max = 0, best_half = 0, best_err = 1e300;
    for (int i = 500; i <= 800; ++i)
        for (int j = 50; j <= 600; ++j) {
            const attention_rate_spec a{i / 1000.0, static_cast<double>(j)};
            double worst = 0;
            for (const auto& r : rows) worst = std::max(worst, std::abs(std::log(attention_efficiency(a, r[0]) * peak / (r[1] * 1e12))));
            if (worst < best_err) best_err = worst, best_max = a.max, best_half = a.half_keys;
        }
    const gpu_spec g = gpu_of("dgx-h100");
    CHECK(g.gemm.attention.max == Approx(best_max).margin(0.001));
    CHECK(g.gemm.attention.half_keys == Approx(best_half).margin(1));
    CHECK(best_err < std::log(1.01));
}

TEST_CASE("FP8 speeds GEMMs up by the curves' ratio, less for small GEMMs, never the flat peak ratio", "[gemm][numerics]") {
    const gpu_spec g = gpu_of("dgx-h100");
    auto speedup = [&](double m, double n, double k) {
        gemm_call c;
        c.m = m, c.n = n, c.k = k, c.fp8 = true;
        return gemm_time_s(g, dtype::bf16, c) / gemm_time_s(g, dtype::fp8, c);
    };
    // At large sizes the ceilings' ratio: (1979 · 0.7087) / (989.5 · 0.8029) = 1402.6 / 794.5.
    CHECK(speedup(16384, 16384, 16384) == Approx(1402.6 / 794.5).epsilon(0.01));
    CHECK(speedup(1024, 1024, 1024) < speedup(8192, 8192, 8192));
    const scenario s = parse_scenario({{"model", "llama3-8b"}, {"cluster", "dgx-h100"}, {"training", {{"precision", "fp8-mixed"}}}});
    CHECK(fp8_speedup(s) < 1402.6 / 794.5);
    CHECK(fp8_speedup(s) > 1.3);
    CHECK(fp8_speedup(s) != Approx(1979.0 / 989.5));  // no flat factor
}

TEST_CASE("Inside a step GEMMs keep the in-step share of the standalone rate", "[gemm]") {
    scenario s = parse_scenario({{"cluster", "dgx-h100"}});
    gemm_call c;
    c.m = c.n = c.k = 8192;
    const double t = gemm_time_s(s.cluster.gpu, dtype::bf16, c);
    s.cluster.gpu.gemm.in_step /= 2;
    CHECK(gemm_time_s(s.cluster.gpu, dtype::bf16, c) == Approx(2 * t).epsilon(1e-12));
}

TEST_CASE("The attention kernel walks seq/ring keys under Ring CP, the whole sequence otherwise", "[gemm][context]") {
    auto keys = [](long cp, const char* method) {
        return attention_kernel_keys(
            parse_scenario({{"model", "llama3-8b"}, {"parallel", {{"cp", cp}, {"cp_method", method}}}, {"training", {{"seq_len", 8192}}}}));
    };
    CHECK(keys(1, "ring") == 8192);
    CHECK(keys(4, "ring") == 2048);
    CHECK(keys(4, "ulysses") == 8192);
    CHECK(keys(4, "allgather") == 8192);
    CHECK(keys(8, "usp") == 8192);  // 32 heads: Ulysses takes all of cp 8
    // So Ring CP's shorter kernels run at a lower rate than the same FLOPs unsplit, as FA3 measured
    // (565.5 TFLOP/s at 2048 keys against 614.2 at 8192: 0.921).
    const attention_rate_spec a;
    CHECK(attention_efficiency(a, 2048) / attention_efficiency(a, 8192) == Approx(565.544 / 614.234).epsilon(0.01));
}
