// Device code of the CUDA backend: the empty kernel (launch latency) and seeded random operands
// for the GEMM probe (random data draws more power than constants, so clocks behave as in training).
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__global__ void empty_kernel() {}

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
// element i of a buffer depends only on (seed, i), so every rank and every run fills the same data.
__device__ float uniform_pm1(std::uint64_t seed, std::uint64_t i) {
    std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * (2.0f / 16777216.0f) - 1.0f;  // [-1, 1)
}

__global__ void fill_bf16(__nv_bfloat16* p, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        p[i] = __float2bfloat16(uniform_pm1(seed, i));
}

__global__ void fill_e4m3(__nv_fp8_e4m3* p, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        p[i] = __nv_fp8_e4m3(uniform_pm1(seed, i) * 4.0f);  // within E4M3's range (max 448)
}

}  // namespace

namespace tslab::calibrate {

cudaError_t launch_empty(cudaStream_t s) {
    empty_kernel<<<1, 1, 0, s>>>();
    return cudaGetLastError();
}

cudaError_t fill_random(void* p, std::size_t elems, bool fp8, std::uint64_t seed, cudaStream_t s) {
    if (fp8) fill_e4m3<<<1024, 256, 0, s>>>(static_cast<__nv_fp8_e4m3*>(p), elems, seed);
    else fill_bf16<<<1024, 256, 0, s>>>(static_cast<__nv_bfloat16*>(p), elems, seed);
    return cudaGetLastError();
}

}  // namespace tslab::calibrate
