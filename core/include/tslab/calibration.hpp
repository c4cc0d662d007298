// The calibration profile (tslab/calibration@1): measured samples, robust fits, strict parsing and JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tslab/collective_ops.hpp"
#include "tslab/json_fields.hpp"

namespace tslab {

enum class link_scope { intra, inter };  // a group inside one node, or one that spans nodes

// How well a fit matches its samples; residuals are relative, (measured − fitted)/fitted.
struct fit_summary {
    std::string method = "theil-sen+huber+bisquare";
    std::vector<double> rel_residuals;  // one per sample, in sample order
    double rms_rel = 0;
    double max_abs_rel = 0;
    std::int64_t outliers = 0;
};

// One point of a collective sweep; time is the median over repeats of the slowest rank.
struct collective_sample {
    std::int64_t bytes = 0;  // nccl-tests "size": the message size S
    double time_s = 0, algbw_Bps = 0, busbw_Bps = 0;
    double time_min_s = 0, time_max_s = 0;  // spread over repeats
};

// time(S) = alpha_s + beta_s_per_byte · S for one collective × group size × scope (Hockney 1994).
struct collective_fit {
    collective_op op = collective_op::allreduce;
    std::int64_t ranks = 0;
    link_scope scope = link_scope::intra;
    bool in_place = false;
    std::string timer;  // "cuda_events" or "steady_clock"
    double alpha_s = 0, beta_s_per_byte = 0;
    fit_summary fit;
    std::vector<collective_sample> samples;
    double time_s(double bytes) const { return alpha_s + beta_s_per_byte * bytes; }
};

struct gemm_sample {
    std::int64_t m = 0, n = 0, k = 0;
    std::string dtype;  // "bf16", "fp8", "fp32"
    double time_s = 0, flops_per_s = 0;
    double sm_clock_mhz = 0, power_w = 0;  // NVML right after timing; 0 = not read (omitted in JSON)
    double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

// The GEMM throughput curve the compute model uses, with x = 2·m·n·k FLOPs of one GEMM:
//     flops_per_s(x) = flops_per_s_max · x / (x + x_half_flops)
//     efficiency(x)  = flops_per_s(x) / peak = e_max · x / (x + x_half_flops), e_max = max/peak
// Equivalently time(x) = (x + x_half_flops) / flops_per_s_max: a fixed cost of x_half FLOPs'
// worth of time (launch, tails, wave quantisation) plus the work at the asymptotic rate, so the
// same robust alpha–beta fit applies, with x_half = alpha/beta and flops_per_s_max = 1/beta.
struct gemm_curve {
    std::string dtype;
    double flops_per_s_max = 0, x_half_flops = 0;
    fit_summary fit;
    double flops_per_s(double x) const { return x > 0 ? flops_per_s_max * x / (x + x_half_flops) : 0; }
    double time_s(double x) const { return flops_per_s_max > 0 ? (x + x_half_flops) / flops_per_s_max : 0; }
    double efficiency(double x, double peak_flops_per_s) const { return peak_flops_per_s > 0 ? flops_per_s(x) / peak_flops_per_s : 0; }
};

struct gemm_section {
    std::vector<gemm_sample> samples;
    std::vector<gemm_curve> curves;  // one per dtype that has samples
    const gemm_curve* curve(const std::string& dtype) const;
};

// One point of a memory probe: "d2d", "h2d", "d2h", "memcpy" (host) or "launch" (bytes 0).
struct memory_sample {
    std::string probe;
    std::int64_t bytes = 0;
    double time_s = 0, Bps = 0;
};

// Figures in bytes copied per second (each byte read once and written once); 0 = not measured.
struct memory_figures {
    double device_copy_Bps = 0, host_to_device_Bps = 0, device_to_host_Bps = 0;
    double host_memcpy_Bps = 0, launch_latency_s = 0;
    std::vector<memory_sample> samples;
};

struct device_info {
    std::string name;
    double memory_bytes = 0;
    std::int64_t count = 0;
};

// Where a profile came from, so that two profiles can be told apart (all optional; empty = unknown).
struct gpu_clock_info {
    std::int64_t rank = 0;
    std::string uuid;
    double sm_clock_mhz = 0, max_sm_clock_mhz = 0, power_limit_w = 0;  // NVML; 0 = not read
};
struct provenance_info {
    std::string origin = "live";  // "live" (tslab-calibrate run) or "nccl-tests import"
    std::string cluster_name, job_id, launcher, node_list_hash;
    std::string stop_reason;  // why an incomplete profile stopped: "SIGINT on rank 1", "--timeout", "rank 1 failed: ..."
    std::vector<std::string> hosts, gpu_uuids, inputs;  // inputs: imported log files
    std::vector<std::pair<std::string, std::string>> nccl_env;  // NCCL_* variables seen by rank 0
    std::vector<gpu_clock_info> clocks;
    bool empty() const;
};

struct calibration_profile {
    bool complete = true;  // false when a run was cut short (signal or --timeout)
    std::string created;  // ISO 8601 UTC, e.g. "2026-12-01T09:30:00Z"
    std::string host, backend;  // backend: "cuda" or "cpu"
    std::vector<device_info> devices;
    std::int64_t ranks = 1, nodes = 1;
    std::vector<std::pair<std::string, std::string>> software;  // name -> version, in order
    std::vector<collective_fit> collectives;
    gemm_section gemm;
    memory_figures memory;
    provenance_info provenance;  // optional in the JSON: profiles written before it have none

    // "calibrated: NVIDIA H200 ×8, 2026-12-01" (", incomplete" appended when cut short).
    std::string source() const;
    const collective_fit* find(collective_op op, std::int64_t ranks, link_scope scope) const;
};

// A link tier (latency + bus bandwidth per GPU) derived from the fits of one scope: the
// AllReduce fit with the most ranks if there is one, else any op with the most ranks. With
// nccl-tests' convention busbw = S·factor(n)/t, the fitted beta gives factor(n)/beta.
struct fitted_link {
    double bandwidth_Bps = 0, latency_s = 0;
    const collective_fit* from = nullptr;
};
std::optional<fitted_link> link_from_profile(const calibration_profile& p, link_scope scope);

// Strict parsing: every problem is an input_error naming the path under `path` (e.g.
// "cluster.calibration.collectives[2].alpha_s: must not be negative, got -1").
calibration_profile parse_calibration(const json& doc, const std::string& path);
calibration_profile parse_calibration_text(const std::string& text, const std::string& path = "");
json calibration_to_json(const calibration_profile& p);
std::string calibration_json_text(const calibration_profile& p);  // dump(2), as the CLI prints it

// Fit every collective's alpha/beta and every GEMM dtype's curve from their samples.
void fit_calibration(calibration_profile& p);

const char* to_string(link_scope s);

}  // namespace tslab
