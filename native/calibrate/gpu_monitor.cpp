// NVML readings (SM clock, power draw, limits) for the profile and the GEMM rows; zeros without NVML.
#include <cstdio>

#include "cuda_common.hpp"
#include "probes.hpp"

#ifdef TSLAB_HAVE_NVML
#include <nvml.h>
#endif

namespace tslab::calibrate {

#ifdef TSLAB_HAVE_NVML

namespace {

// The NVML handle of CUDA device `device`, matched by PCI bus id (CUDA and NVML number GPUs differently).
bool handle_of(int device, nvmlDevice_t& h) {
    static const bool ready = nvmlInit_v2() == NVML_SUCCESS;
    char bus[32] = {};
    if (!ready || cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) return false;
    return nvmlDeviceGetHandleByPciBusId_v2(bus, &h) == NVML_SUCCESS;
}

}  // namespace

gpu_reading read_gpu(int device) {
    gpu_reading r;
    nvmlDevice_t h;
    if (!handle_of(device, h)) return r;
    unsigned int mhz = 0, mw = 0;
    if (nvmlDeviceGetClockInfo(h, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) r.sm_clock_mhz = mhz;
    if (nvmlDeviceGetPowerUsage(h, &mw) == NVML_SUCCESS) r.power_w = mw / 1000.0;
    return r;
}

void read_limits(int device, device_identity& d) {
    nvmlDevice_t h;
    if (!handle_of(device, h)) return;
    unsigned int mhz = 0, mw = 0;
    if (nvmlDeviceGetMaxClockInfo(h, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) d.max_sm_clock_mhz = mhz;
    if (nvmlDeviceGetEnforcedPowerLimit(h, &mw) == NVML_SUCCESS) d.power_limit_w = mw / 1000.0;
    d.sm_clock_mhz = read_gpu(device).sm_clock_mhz;
    char driver[96] = {};
    if (nvmlSystemGetDriverVersion(driver, sizeof driver) == NVML_SUCCESS) d.software.emplace_back("nvidia_driver", driver);
}

#else

gpu_reading read_gpu(int) { return {}; }
void read_limits(int, device_identity&) {}

#endif

}  // namespace tslab::calibrate
