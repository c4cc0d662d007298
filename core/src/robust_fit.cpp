// Robust line fits: weighted Theil–Sen start, then Huber and bisquare IRLS on relative residuals.
#include "tslab/robust_fit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tslab {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    const std::size_t h = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
    const double hi = v[h];
    if (v.size() % 2 == 1) return hi;
    return 0.5 * (hi + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h)));
}

namespace detail {

// Weighted median: the smallest value whose cumulative weight reaches half the total.
double weighted_median(std::vector<std::pair<double, double>> vw) {
    std::sort(vw.begin(), vw.end());
    double total = 0;
    for (const auto& p : vw) total += p.second;
    double acc = 0;
    for (const auto& p : vw) {
        acc += p.second;
        if (acc >= 0.5 * total) return p.first;
    }
    return vw.empty() ? 0 : vw.back().first;
}

double rel_residual(double y, double fitted) {
    const double f = std::max(std::abs(fitted), 1e-300);
    return (y - fitted) / f;
}

// Weighted least squares of y = a + b·x with a, b ≥ 0 (the constrained optimum lies on a boundary
// when the free one leaves the feasible set).
std::pair<double, double> weighted_ls(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w) {
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sw += w[i], sx += w[i] * x[i], sy += w[i] * y[i];
        sxx += w[i] * x[i] * x[i], sxy += w[i] * x[i] * y[i];
    }
    if (sw <= 0) return {0, 0};
    const double det = sw * sxx - sx * sx;
    double a = 0, b = 0;
    if (det > 1e-12 * sw * sxx) {
        a = (sxx * sy - sx * sxy) / det;
        b = (sw * sxy - sx * sy) / det;
    } else {
        a = sy / sw;  // one distinct x: a constant
    }
    if (b < 0) b = 0, a = sy / sw;
    if (a < 0) a = 0, b = sxx > 0 ? std::max(0.0, sxy / sxx) : 0;
    return {a, b};
}

void summarise(line_fit& f, const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w) {
    f.rel_residuals.assign(x.size(), 0);
    double ss = 0;
    std::int64_t kept = 0;
    f.outliers = 0;
    f.max_abs_rel = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        f.rel_residuals[i] = rel_residual(y[i], f.alpha + f.beta * x[i]);
        if (!w.empty() && w[i] == 0) {
            ++f.outliers;
            continue;
        }
        ss += f.rel_residuals[i] * f.rel_residuals[i];
        f.max_abs_rel = std::max(f.max_abs_rel, std::abs(f.rel_residuals[i]));
        ++kept;
    }
    f.rms_rel = kept > 0 ? std::sqrt(ss / static_cast<double>(kept)) : 0;
}

// One IRLS pass family: `bisquare` selects Tukey's weights, otherwise Huber's.
void irls(line_fit& f, const std::vector<double>& x, const std::vector<double>& y, bool bisquare, std::vector<double>& robust_w) {
    const std::size_t n = x.size();
    for (int iter = 0; iter < 30; ++iter) {
        std::vector<double> r(n), absr(n);
        for (std::size_t i = 0; i < n; ++i) r[i] = rel_residual(y[i], f.alpha + f.beta * x[i]), absr[i] = std::abs(r[i]);
        // Floor the scale at 0.1 %: exact data must not make every point an outlier.
        const double s = std::max(1.4826 * median(absr), 1e-3);
        std::vector<double> w(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double u = absr[i] / s;
            robust_w[i] = bisquare ? (u < 4.685 ? std::pow(1 - (u / 4.685) * (u / 4.685), 2) : 0.0) : (u <= 1.345 ? 1.0 : 1.345 / u);
            const double fitted = std::max(f.alpha + f.beta * x[i], 1e-300);
            w[i] = robust_w[i] / (fitted * fitted);  // relative residuals: weight 1/ŷ²
        }
        const auto [a, b] = weighted_ls(x, y, w);
        const bool settled =
            std::abs(a - f.alpha) <= 1e-10 * std::max(std::abs(a), 1e-300) && std::abs(b - f.beta) <= 1e-10 * std::max(std::abs(b), 1e-300);
        f.alpha = a, f.beta = b;
        if (settled) break;
    }
}

}  // namespace detail

line_fit theil_sen(const std::vector<double>& x, const std::vector<double>& y) {
    line_fit f;
    const std::size_t n = std::min(x.size(), y.size());
    if (n == 0) return f;
    std::vector<std::pair<double, double>> slopes;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            if (x[j] != x[i]) slopes.emplace_back((y[j] - y[i]) / (x[j] - x[i]), std::abs(x[j] - x[i]));
    f.beta = slopes.empty() ? 0 : detail::weighted_median(std::move(slopes));
    std::vector<double> intercepts(n);
    for (std::size_t i = 0; i < n; ++i) intercepts[i] = y[i] - f.beta * x[i];
    f.alpha = median(intercepts);
    f.ok = true;
    detail::summarise(f, x, y, {});
    return f;
}

line_fit robust_alpha_beta(const std::vector<double>& x, const std::vector<double>& y) {
    line_fit f = theil_sen(x, y);
    if (!f.ok) return f;
    f.alpha = std::max(f.alpha, 0.0);
    f.beta = std::max(f.beta, 0.0);
    if (f.alpha == 0 && f.beta == 0) f.alpha = median(y);
    std::vector<double> w(x.size(), 1.0);
    detail::irls(f, x, y, false, w);
    detail::irls(f, x, y, true, w);
    detail::summarise(f, x, y, w);
    return f;
}

}  // namespace tslab
