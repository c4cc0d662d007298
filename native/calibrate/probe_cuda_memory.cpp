// CUDA backend memory probes: device-to-device copy, pinned host<->device copies, launch latency.
#include <cstdio>
#include <vector>

#include "cuda_common.hpp"
#include "probes.hpp"

namespace tslab::calibrate {

namespace {

// One copy probe over rotated buffer pairs; `kind` picks the direction.
void copy_probe(world& w, const options& o, recorder& rec, const char* probe, cudaMemcpyKind kind, std::int64_t bytes, cudaStream_t s) {
    const int k = rotations_for(bytes);
    const bool src_host = kind == cudaMemcpyHostToDevice, dst_host = kind == cudaMemcpyDeviceToHost;
    std::vector<device_buffer> src, dst;
    for (int i = 0; i < k; ++i) {
        src.emplace_back(static_cast<std::size_t>(bytes), src_host);
        dst.emplace_back(static_cast<std::size_t>(bytes), dst_host);
    }
    auto body = [&](int i) {
        const auto j = static_cast<std::size_t>(i % k);
        cuda_check(cudaMemcpyAsync(dst[j].get(), src[j].get(), static_cast<std::size_t>(bytes), kind, s), "cudaMemcpyAsync");
    };
    if (o.warmup > 0) time_on_stream(s, o.warmup, body);
    const timing t = measure(w, o.repeats, 3, [&] {
        w.barrier();
        return time_on_stream(s, o.iters, body);
    });
    const double bps = static_cast<double>(bytes) / t.median_s;
    if (w.rank == 0) {
        std::fputs(probe_row(probe, bytes, t, bps).c_str(), stdout);
        rec.add_memory({probe, bytes, t.median_s, bps});
    }
}

}  // namespace

void probe_cuda_memory(world& w, const options& o, recorder& rec) {
    cudaStream_t s;
    cuda_check(cudaStreamCreate(&s), "cudaStreamCreate");
    const std::vector<std::int64_t> d2d =
        o.quick ? std::vector<std::int64_t>{64LL << 20, 256LL << 20} : std::vector<std::int64_t>{1LL << 20, 16LL << 20, 256LL << 20, 1LL << 30};
    const std::vector<std::int64_t> host =
        o.quick ? std::vector<std::int64_t>{16LL << 20, 64LL << 20} : std::vector<std::int64_t>{1LL << 20, 16LL << 20, 64LL << 20, 256LL << 20};
    if (w.rank == 0) std::fputs(probe_header("memory: copies timed with CUDA events, all ranks at once").c_str(), stdout);
    for (auto b : d2d)
        if (!stopper().agreed(w)) copy_probe(w, o, rec, "d2d", cudaMemcpyDeviceToDevice, b, s);
    for (auto b : host)
        if (!stopper().agreed(w)) copy_probe(w, o, rec, "h2d", cudaMemcpyHostToDevice, b, s);
    for (auto b : host)
        if (!stopper().agreed(w)) copy_probe(w, o, rec, "d2h", cudaMemcpyDeviceToHost, b, s);
    // Back-to-back empty kernels: the time per launch once the queue is full.
    auto launch = [&](int) { cuda_check(launch_empty(s), "empty kernel"); };
    if (!stopper().agreed(w)) {
        time_on_stream(s, 100, launch);
        const timing t = measure(w, o.repeats, 3, [&] { return time_on_stream(s, 1000, launch); });
        if (w.rank == 0) {
            std::fputs(probe_row("launch", 0, t, 0).c_str(), stdout);
            rec.add_memory({"launch", 0, t.median_s, 0});
        }
    }
    cudaStreamDestroy(s);
}

}  // namespace tslab::calibrate
