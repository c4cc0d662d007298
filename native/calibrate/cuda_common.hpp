// Shared pieces of the CUDA backend: error checks that throw, device buffers, event timing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace tslab::calibrate {

// Throws std::runtime_error("what: CUDA error text") on failure.
void cuda_check(cudaError_t e, const char* what);

// Launches an empty kernel on `s` (cuda_kernels.cu); its rate is the launch latency.
cudaError_t launch_empty(cudaStream_t s);
// Fills `elems` BF16 (or FP8 E4M3) elements with seeded uniform values in [-1, 1) (×4 for FP8).
cudaError_t fill_random(void* p, std::size_t elems, bool fp8, std::uint64_t seed, cudaStream_t s);
// NVML, where it was found at build time: this GPU's SM clock (MHz) and power draw (W) now; 0s
// without NVML or on error.
struct gpu_reading {
    double sm_clock_mhz = 0, power_w = 0;
};
gpu_reading read_gpu(int device);

class device_buffer {
public:
    explicit device_buffer(std::size_t bytes, bool pinned_host = false);
    ~device_buffer();
    device_buffer(device_buffer&& o) noexcept : p_(o.p_), pinned_(o.pinned_) { o.p_ = nullptr; }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    void* get() const { return p_; }

private:
    void* p_ = nullptr;
    bool pinned_ = false;
};

// Waits for `e` without blocking forever: polls cudaEventQuery, calls `poll` (which throws on an
// asynchronous NCCL error) about every millisecond, and throws once `timeout_s` (0: none) passed.
void wait_event(cudaEvent_t e, double timeout_s, const std::function<void()>& poll);

// Seconds per iteration of `body(i)` for i in [0, iters), between two CUDA events on `s`; the
// wait is bounded by `timeout_s` and checked by `poll` (wait_event).
template <class F>
double time_on_stream(cudaStream_t s, int iters, F&& body, double timeout_s = 0, const std::function<void()>& poll = {}) {
    cudaEvent_t a, b;
    cuda_check(cudaEventCreate(&a), "cudaEventCreate");
    cuda_check(cudaEventCreate(&b), "cudaEventCreate");
    cuda_check(cudaEventRecord(a, s), "cudaEventRecord");
    for (int i = 0; i < iters; ++i) body(i);
    cuda_check(cudaEventRecord(b, s), "cudaEventRecord");
    wait_event(b, timeout_s, poll);
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return static_cast<double>(ms) * 1e-3 / iters;
}

}  // namespace tslab::calibrate
