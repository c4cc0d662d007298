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

// Median and spread over repeats of the slowest rank's time per iteration.
struct timing {
    double median_s = 0, min_s = 0, max_s = 0;
};

// Runs `per_iter_s` (one repeat: seconds per iteration on this rank) `repeats` times, takes the
// maximum across ranks of each repeat, and returns the median and range.
timing measure(const world& w, int repeats, const std::function<double()>& per_iter_s);

// Set by SIGINT/SIGTERM or the --timeout deadline; ranks agree on it before each point.
class stop_control {
public:
    void arm(double timeout_s);
    void request(int signal_number) { signal_.store(signal_number), requested_.store(true); }
    bool local() const;
    bool agreed(const world& w) const { return w.any(local()); }
    int signal_number() const { return signal_.load(); }
    bool deadline_passed() const;

private:
    std::atomic<bool> requested_{false};
    std::atomic<int> signal_{0};
    std::chrono::steady_clock::time_point deadline_{};
    bool has_deadline_ = false;
};
stop_control& stopper();

// The profile under construction. Only rank 0 records; the watchdog may snapshot it.
class recorder {
public:
    void set_identity(const calibration_profile& id);
    void add_collective(collective_op op, const group& g, bool in_place, const std::string& timer,
                        const collective_sample& s);
    void add_gemm(const gemm_sample& s);
    void add_memory(const memory_sample& s);
    // Fits and writes the profile (temp file + rename) once; later calls do nothing.
    bool write(const std::string& path, bool complete, std::string& error);
    calibration_profile snapshot(bool complete) const;

private:
    mutable std::mutex m_;
    calibration_profile p_;
    bool written_ = false;
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

// The nccl-tests table: a "#" header with a units row, then one row per size.
std::string table_header(const std::string& title);
std::string table_row(std::int64_t bytes, std::int64_t count, const char* type, const char* redop, int root,
                      double time_s, double algbw_Bps, double busbw_Bps, std::int64_t wrong);

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
