// CUDA backend: picking this rank's GPU from its local rank, its identity and software versions.
#include <cublas_v2.h>
#include <nccl.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "cuda_common.hpp"
#include "probes.hpp"

namespace tslab::calibrate {

void cuda_check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(fmt::format("{}: {}", what, cudaGetErrorString(e)));
}

void wait_event(cudaEvent_t e, double timeout_s, const std::function<void()>& poll) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        const cudaError_t q = cudaEventQuery(e);
        if (q == cudaSuccess) return;
        if (q != cudaErrorNotReady) cuda_check(q, "cudaEventQuery");
        if (poll) poll();
        const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (timeout_s > 0 && waited > timeout_s) throw std::runtime_error(fmt::format("GPU work did not finish within -T {:g} s", timeout_s));
        std::this_thread::sleep_for(std::chrono::microseconds(waited < 0.01 ? 20 : 1000));
    }
}

device_buffer::device_buffer(std::size_t bytes, bool pinned_host) : pinned_(pinned_host) {
    cuda_check(pinned_ ? cudaMallocHost(&p_, bytes) : cudaMalloc(&p_, bytes), pinned_ ? "cudaMallocHost" : "cudaMalloc");
}

device_buffer::~device_buffer() {
    if (p_) pinned_ ? cudaFreeHost(p_) : cudaFree(p_);
}

namespace {
std::string cuda_version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }
}  // namespace

device_identity cuda_select_device(int local_rank) {
    device_identity d;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        d.error = e != cudaSuccess ? cudaGetErrorString(e) : "no GPU found";
        return d;
    }
    const int dev = local_rank % count;  // one rank per GPU: local rank i drives GPU i
    cuda_check(cudaSetDevice(dev), "cudaSetDevice");
    cudaDeviceProp prop{};
    cuda_check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    d.ok = true;
    d.index = dev;
    d.name = prop.name;
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, dev) == cudaSuccess) d.bus_id = bus;
    std::string uuid = "GPU-";
    for (int i = 0; i < 16; ++i)  // as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
        uuid += fmt::format("{}{:02x}", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", static_cast<unsigned char>(prop.uuid.bytes[i]));
    d.uuid = uuid;
    d.memory_bytes = static_cast<double>(prop.totalGlobalMem);
    d.major = prop.major, d.minor = prop.minor;
    int driver = 0, runtime = 0, nccl = 0, cb[3] = {};
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    ncclGetVersion(&nccl);
    cublasGetProperty(MAJOR_VERSION, &cb[0]);
    cublasGetProperty(MINOR_VERSION, &cb[1]);
    cublasGetProperty(PATCH_LEVEL, &cb[2]);
    d.software = {{"cuda_driver", cuda_version_text(driver)},
                  {"cuda_runtime", cuda_version_text(runtime)},
                  {"cublas", fmt::format("{}.{}.{}", cb[0], cb[1], cb[2])},
                  {"nccl", fmt::format("{}.{}.{}", nccl / 10000, (nccl / 100) % 100, nccl % 100)},
                  {"compute_capability", fmt::format("{}.{}", prop.major, prop.minor)}};
    read_limits(dev, d);
    return d;
}

}  // namespace tslab::calibrate
