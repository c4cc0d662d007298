// Fitting the in-step GEMM share and the per-GPU speed spread to the training set (minimax).
#include "tslab/validation_fit.hpp"

#include <algorithm>
#include <cmath>

namespace tslab {

scenario with_step_constants(scenario s, double in_step, double gpu_speed_cv) {
    s.cluster.gpu.gemm.in_step = in_step;
    s.cluster.gpu_speed_cv = gpu_speed_cv;
    return s;
}

step_model_fit evaluate_step_model(const std::vector<validation_case>& cases, double in_step, double gpu_speed_cv, double stop_above) {
    step_model_fit f{in_step, gpu_speed_cv, 0, 0};
    for (const auto& c : cases) {
        const double ratio = predict_case(c, with_step_constants(c.input, in_step, gpu_speed_cv)) / c.row.published;
        f.worst_log_error = std::max(f.worst_log_error, std::abs(std::log(ratio)));
        f.mean_abs_error += std::abs(ratio - 1) / static_cast<double>(cases.size());
        if (f.worst_log_error > stop_above) break;  // cannot beat the best point so far
    }
    return f;
}

namespace {

// For one cv, the in_step in [0.5, 0.95] with the least worst error: golden-section search (the
// worst |ln| error of the rows is unimodal in in_step at fixed cv: every step time falls as it rises).
step_model_fit best_in_step(const std::vector<validation_case>& cases, double cv) {
    const double g = (std::sqrt(5.0) - 1) / 2;
    double lo = min_in_step, hi = max_in_step;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = evaluate_step_model(cases, x1, cv).worst_log_error, f2 = evaluate_step_model(cases, x2, cv).worst_log_error;
    while (hi - lo > 2e-4) {
        if (f1 < f2)
            hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = evaluate_step_model(cases, x1, cv).worst_log_error;
        else
            lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = evaluate_step_model(cases, x2, cv).worst_log_error;
    }
    return evaluate_step_model(cases, std::round(0.5 * (lo + hi) * 1000) / 1000, cv);
}

}  // namespace

step_model_fit fit_step_model(const std::vector<validation_case>& cases) {
    step_model_fit best;
    best.worst_log_error = 1e300;
    for (int i = 0; i <= 20; ++i) {
        const step_model_fit f = best_in_step(cases, max_gpu_speed_cv * i / 20);
        if (f.worst_log_error < best.worst_log_error) best = f;
    }
    return best;
}

step_model_fit fit_step_model() { return fit_step_model(parse_validation_cases(json::parse(embedded_validation_set()))); }

}  // namespace tslab
