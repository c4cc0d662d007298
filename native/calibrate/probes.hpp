// The probes other than the collective sweep, and the scenario's own shapes and sizes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "collectives.hpp"
#include "harness.hpp"

namespace tslab::calibrate {

struct gemm_shape {
    std::int64_t m = 0, n = 0, k = 0;
    std::string what;  // "square", "qkv", "fc1", ...
};

// A scenario's per-rank forward GEMMs and its typical messages (TP activation AllReduce,
// a 25 MiB DP gradient bucket as PyTorch DDP's bucket_cap_mb default, EP dispatch All-to-All).
struct workload {
    std::vector<gemm_shape> gemms;
    std::vector<std::int64_t> message_bytes;
    std::uint64_t content_hash = 0;  // FNV-1a of the scenario file's bytes, for the rank agreement
};
workload scenario_workload(const std::string& path);

// "#" header with a units row for the memory and GEMM probes.
std::string probe_header(const std::string& title);
std::string probe_row(const char* probe, std::int64_t bytes, const timing& t, double Bps);
std::string gemm_header(const std::string& title);
std::string gemm_row(const gemm_shape& s, const char* dtype, const timing& t, double flops_per_s);

void probe_host_memcpy(world& w, const options& o, recorder& rec);

// The CUDA backend (probe_cuda_*.cpp), built only when the CUDA toolkit is found.
struct device_identity {
    bool ok = false;
    int index = -1;
    std::string error, name, bus_id, uuid;
    double sm_clock_mhz = 0, max_sm_clock_mhz = 0, power_limit_w = 0;  // NVML, where present
    double memory_bytes = 0;
    int major = 0, minor = 0;
    std::vector<std::pair<std::string, std::string>> software;
};
device_identity cuda_select_device(int local_rank);
void read_limits(int device, device_identity& d);  // NVML max SM clock, power limit, driver (gpu_monitor.cpp)
void probe_cuda_memory(world& w, const options& o, recorder& rec);
void probe_cuda_gemm(world& w, const options& o, const device_identity& d, const std::vector<gemm_shape>& extra, recorder& rec);
// NCCL (probe_collectives_nccl.cpp); nullptr without MPI. All-to-all falls back to grouped
// ncclSend/ncclRecv when the header or the library predates ncclAlltoAll (2.28), or when asked.
std::unique_ptr<collective_runner> make_nccl_runner(world& w, bool grouped_alltoall, int local_register, double op_timeout_s);
// "NCCL header 2.28.3 (22803), library 2.28.3 (22803)", for the start-up line.
std::string nccl_versions();

}  // namespace tslab::calibrate
