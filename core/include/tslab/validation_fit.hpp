// The fit of the step model's two free constants to the training set: the in-step GEMM share
// (cluster.gpu.gemm_efficiency.in_step) and the per-GPU speed spread (cluster.gpu_speed_cv).
#pragma once

#include <vector>

#include "tslab/validation_set.hpp"

namespace tslab {

struct step_model_fit {
    double in_step = 0, gpu_speed_cv = 0;
    double worst_log_error = 0;  // max over rows of |ln(predicted / published)|
    double mean_abs_error = 0;  // mean of |predicted / published − 1| at the fit
};

// The largest per-GPU speed spread the fit may take. Sinha et al. (SC22, arXiv 2208.11035) measured
// up to a 22% spread between identical GPUs of a cluster; for ~1000 GPUs the expected range of a
// normal spread is about 2 × 3.2 σ, so σ ≤ 0.22 / 6.5 = 0.034.
inline constexpr double max_gpu_speed_cv = 0.034;
// The range the fit searches for the in-step GEMM share.
inline constexpr double min_in_step = 0.5, max_in_step = 0.95;

// Minimax of |ln(predicted / published)| over `cases` (the embedded training set by default): cv on
// 21 points from 0 to max_gpu_speed_cv, for each the best in_step in [0.5, 0.95] by golden section
// (rounded to 0.001). Both constants act on every row at once (every GEMM; every GPU's pace), so the
// fit cannot bend single rows.
step_model_fit fit_step_model(const std::vector<validation_case>& cases);
step_model_fit fit_step_model();

// `s` with the two fitted constants set (the fit, the refits and the cross-validation apply them alike).
scenario with_step_constants(scenario s, double in_step, double gpu_speed_cv);

// The worst |ln(predicted / published)| and the mean |error| of `cases` at the given constants.
step_model_fit evaluate_step_model(const std::vector<validation_case>& cases, double in_step, double gpu_speed_cv, double stop_above = 1e300);

}  // namespace tslab
