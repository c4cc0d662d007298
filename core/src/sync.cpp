// Order statistics of the standard normal and the slowest-GPU delay of a synchronous step.
#include "tslab/sync.hpp"

#include <cmath>

namespace tslab {

// Bisection on erfc: 200 halvings of [-40, 40] reach double precision; no rational approximation
// needs citing, and the results are memoised where a search asks often.
double normal_quantile(double p) {
    double lo = -40, hi = 40;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

double expected_max_normal(std::int64_t n) {
    if (n <= 1) return 0;
    // A planner asks for one world size millions of times: keep the last answer.
    thread_local std::int64_t last_n = 0;
    thread_local double last = 0;
    if (n != last_n) {
        const double x = static_cast<double>(n);
        last = normal_quantile((x - 0.375) / (x + 0.25));
        last_n = n;
    }
    return last;
}

double slowest_gpu_delay(double cv, std::int64_t gpus) { return cv > 0 ? cv * expected_max_normal(gpus) : 0; }

}  // namespace tslab
