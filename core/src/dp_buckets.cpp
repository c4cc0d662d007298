// The arithmetic of data-parallel overlap (dp_buckets.hpp): bucket sizes and counts, a bucket
// pipeline's exposed tail, ZeRO-3's per-layer prefetch.
#include "tslab/dp_buckets.hpp"

#include <algorithm>
#include <cmath>

namespace tslab {

double dp_bucket_elems(const overlap_spec& o, std::int64_t dp_ranks) {
    if (o.bucket_elems > 0) return o.bucket_elems;
    return std::max(40e6, 1e6 * static_cast<double>(dp_ranks));  // MCore DistributedDataParallelConfig.bucket_size
}

std::int64_t dp_bucket_count(double elems, double bucket_elems) {
    if (!(elems > 0) || !(bucket_elems > 0)) return 1;
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(elems / bucket_elems)));
}

double bucketed_exposed_s(double bucket_s, std::int64_t n, double window_s) {
    const double N = static_cast<double>(std::max<std::int64_t>(1, n));
    const double w = std::max(0.0, window_s);
    return std::min(N * bucket_s, std::max(bucket_s, N * bucket_s - w + w / N));
}

double zero3_exposed_s(const overlap_spec& o, double gather_s, double reduce_s, double layers, double fwd_window_s, double bwd_window_s) {
    const double L = std::max(1.0, layers), g = gather_s, r = reduce_s;
    const double fwd = o.param_gather ? g + (L - 1) * std::max(0.0, g - fwd_window_s) : L * g;
    // Under each backward window: what the switches put on the communication stream.
    const double under_bwd = (o.param_gather ? g : 0) + (o.grad_reduce ? r : 0);
    const double bwd = (o.param_gather ? 0 : L * g) + (o.grad_reduce ? r : L * r) + (L - 1) * std::max(0.0, under_bwd - bwd_window_s);
    return fwd + bwd;
}

}  // namespace tslab
