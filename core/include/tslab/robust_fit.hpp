// Robust statistics for calibration: medians and outlier-insensitive fits of time = alpha + beta·x.
#pragma once

#include <cstdint>
#include <vector>

namespace tslab {

// Median of a sample (mean of the two middle values for an even count); 0 for an empty one.
double median(std::vector<double> v);

// The result of fitting y = alpha + beta·x. Residuals are relative to the fitted value,
// (y − ŷ)/ŷ, because timings are noisy in proportion to their size.
struct line_fit {
    double alpha = 0;
    double beta = 0;
    std::vector<double> rel_residuals;  // one per sample, in input order
    double rms_rel = 0;  // root mean square of the residuals that are not outliers
    double max_abs_rel = 0;  // largest |residual| among those that are not outliers
    std::int64_t outliers = 0;  // samples the fit rejected (zero weight in the last pass)
    bool ok = false;  // false for fewer than one sample or a degenerate x
};

// Theil–Sen estimator with Sen's weighting (Sen, JASA 63(324), 1968): beta is the median of the
// pairwise slopes, each pair weighted by its x-distance, alpha the median of y − beta·x.
// Breakdown point ~29 %: a few wild points do not move it.
line_fit theil_sen(const std::vector<double>& x, const std::vector<double>& y);

// The calibration fit: starts at Theil–Sen, then iteratively reweighted least squares on the
// relative residuals, first with Huber weights (k = 1.345 s) and then Tukey's bisquare
// (c = 4.685 s), s = 1.4826·MAD (Huber, "Robust Statistics", 1981; Holland & Welsch 1977).
// alpha and beta are constrained to be ≥ 0 (a latency and an inverse bandwidth).
line_fit robust_alpha_beta(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace tslab
