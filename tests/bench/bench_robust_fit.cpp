// Cost of the robust alpha-beta fit on a full sweep (28 sizes) and on a long one (200 samples).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "tslab/robust_fit.hpp"

namespace {

void fit_sweep(benchmark::State& state) {
    std::vector<double> x, y;
    for (int i = 0; i < state.range(0); ++i) {
        const double b = 8.0 * std::pow(2.0, i % 28);
        x.push_back(b);
        y.push_back((5e-6 + b / 20e9) * (1.0 + 0.03 * std::sin(i * 1.7)));  // deterministic 3 % wobble
    }
    for (auto _ : state) benchmark::DoNotOptimize(tslab::robust_alpha_beta(x, y));
}

}  // namespace

BENCHMARK(fit_sweep)->Arg(28)->Arg(200);
