// Device code of the CUDA backend: the empty kernel whose launch rate gives the launch latency.
#include <cuda_runtime.h>

namespace {
__global__ void empty_kernel() {}
}  // namespace

namespace tslab::calibrate {

cudaError_t launch_empty(cudaStream_t s) {
    empty_kernel<<<1, 1, 0, s>>>();
    return cudaGetLastError();
}

}  // namespace tslab::calibrate
