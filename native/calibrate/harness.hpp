// The measurement harness shared by every probe and backend: timing statistics, the stop flag,
// the nccl-tests-style table, the progress bar, and the profile being recorded.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "options.hpp"
#include "tslab/calibration.hpp"
#include "world.hpp"

namespace tslab::calibrate {

// Median and spread over repeats of the time per iteration across ranks (-a: mean by default).
struct timing {
    double median_s = 0, min_s = 0, max_s = 0;
    bool stopped = false;  // the ranks agreed to stop between two repeats; the point is not recorded
};

// Runs `per_iter_s` (one repeat: seconds per iteration on this rank) `repeats` times, combines
// each repeat across ranks as nccl-tests' -a `average` mode does (world::reduce_time), and
// returns the median and range. Between repeats the ranks agree on a stop request, so a long
// point ends early when interrupted.
timing measure(const world& w, int repeats, int average, const std::function<double()>& per_iter_s);

// Set by SIGINT/SIGTERM (on this rank, or forwarded by another rank's notice) or the --timeout
// deadline; ranks agree on it, and on its reason, before each point and between repeats.
class stop_control {
public:
    void arm(double timeout_s);
    // Async-signal-safe: atomic stores only.
    void request(int signal_number) { signal_.store(signal_number), requested_.store(true); }
    void request_from(int signal_number, int rank) { signal_rank_.store(rank), request(signal_number); }
    bool local() const;
    bool agreed(const world& w);  // collective
    int signal_number() const { return signal_.load(); }
    int signal_rank() const { return signal_rank_.load(); }
    bool deadline_passed() const;
    // "SIGINT on rank 1" or "--timeout 20 s", as agreed; "" while running.
    std::string reason() const;
    bool stopped_by_signal() const { return agreed_[0] != 0; }

private:
    std::atomic<bool> requested_{false};
    std::atomic<int> signal_{0}, signal_rank_{-1};
    std::chrono::steady_clock::time_point deadline_{};
    double timeout_s_ = 0;
    bool has_deadline_ = false;
    long long agreed_[3] = {0, -1, 0};  // signal, its rank, deadline passed
};
stop_control& stopper();

// The profile under construction. Only rank 0 records; the watchdog may snapshot it.
class recorder {
public:
    void set_identity(const calibration_profile& id);
    void add_collective(collective_op op, const group& g, bool in_place, const std::string& timer, const collective_sample& s);
    void add_gemm(const gemm_sample& s);
    void add_memory(const memory_sample& s);
    // Fits and writes the profile atomically (atomic_file.hpp); returns "" or the OS error.
    // Safe from the watchdog thread while the main thread records.
    std::string write(const std::string& path, bool complete, const std::string& stop_reason);
    calibration_profile snapshot(bool complete) const;

private:
    mutable std::mutex m_;
    calibration_profile p_;
};

// A progress bar on stderr, drawn only when stderr is a terminal and on rank 0.
class progress {
public:
    progress(bool enabled, std::int64_t total);
    void step(const std::string& what);
    void finish();

private:
    bool enabled_;
    std::int64_t total_, done_ = 0;
};

// The nccl-tests table (NVIDIA/nccl-tests src/util.cu writeResultHeader / writeBenchmarkLine*):
// a "#" header with out-of-place and in-place column groups and a units row, one row per size,
// then the footer with "# Out of bounds values" and "# Avg bus bandwidth".
struct placement_result {
    double time_s = 0, algbw_Bps = 0, busbw_Bps = 0;
    std::int64_t wrong = 0;
    bool checked = true;  // false with -c 0: #wrong prints N/A
};
std::string table_header(const std::string& title);
std::string table_row(std::int64_t bytes, std::int64_t count, const char* type, const char* redop, int root, const placement_result& out_of_place,
                      const placement_result& in_place);
std::string table_footer(std::int64_t rows_with_errors, double avg_busbw_Bps);
// nccl-tests' getFloatStr: the widest of %.2f, %.1f, %.0f, %.1e that fits `width`.
std::string nccl_float(double v, int width);

// Physical memory still available to this process, in bytes (sysconf).
double available_host_bytes();
// Throws input_error("-e", ...) when `need_bytes_per_rank` × ranks on the node exceeds 80 % of `available`.
void check_fits(std::int64_t need_bytes_per_rank, int ranks_on_node, double available, const char* where);

// Buffers rotated per size so that small messages do not stay in cache: enough to cover 64 MiB,
// between 2 and 8.
int rotations_for(std::int64_t bytes);

// Current UTC time in ISO 8601, for "created".
std::string utc_now();

}  // namespace tslab::calibrate
