// The pace of a synchronous step on GPUs of uneven speed: the whole job computes at its slowest GPU.
#pragma once

#include <cstdint>

namespace tslab {

// Φ⁻¹(p) of the standard normal distribution.
double normal_quantile(double p);

// Expected maximum of n independent standard normal draws by Blom's plotting position,
// Φ⁻¹((n − 0.375)/(n + 0.25)) (Blom 1958); 0 for n ≤ 1.
double expected_max_normal(std::int64_t n);

// How much slower than the median GPU the step computes, as a fraction. Every GPU meets its TP group
// in each layer, its pipeline neighbours in each micro-batch and every DP replica once per step, so
// the slowest of the N GPUs sets the pace of all of them; per-GPU speeds spread with coefficient of
// variation cv (power management, thermals, manufacturing: Sinha et al., "Not All GPUs Are Created
// Equal", SC22, arXiv 2208.11035, measured an 8% average spread across identical GPUs), so the
// slowest is cv · E[max of N] behind. cv is cluster.gpu_speed_cv, fitted on the training set.
double slowest_gpu_delay(double cv, std::int64_t gpus);

}  // namespace tslab
