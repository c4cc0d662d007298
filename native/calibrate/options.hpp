// Command-line flags of tslab-calibrate, in the style of nccl-tests (-b -e -f -n -w).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/collective_ops.hpp"

namespace tslab::calibrate {

struct options {
    std::int64_t min_bytes = 8, max_bytes = 32 << 20;
    std::int64_t step_factor = 2;
    int iters = 20, warmup = 5, repeats = 5;
    std::vector<collective_op> ops;  // collectives to sweep
    bool gemm = true, memory = true;  // the non-collective probes
    bool quick = false;
    bool ops_given = false;  // --ops chose the probes; otherwise the backend's defaults apply
    std::string out = "tslab-calibration.json";
    std::string scenario;  // measure this scenario's GEMM shapes and message sizes too
    double timeout_s = 0;  // 0: none
    std::string backend;   // "cuda" or "cpu"; empty until resolved
    bool help = false;     // --help: print usage() and exit
    bool version = false;  // --version
};

// Throws input_error naming the flag ("--ops: unknown op \"allredcue\"; did you mean allreduce?",
// "--bogus: unknown option for tslab-calibrate; see tslab-calibrate --help").
options parse_options(int argc, char** argv);
std::string usage();

// "8", "64K", "32M", "1G" (powers of 1024) -> bytes.
std::int64_t parse_size(const std::string& flag, const std::string& text);
std::string format_size(std::int64_t bytes);

// Message sizes from -b to -e, multiplied by -f, plus `extra` (e.g. a scenario's sizes).
std::vector<std::int64_t> sweep_sizes(const options& o, const std::vector<std::int64_t>& extra);

// FNV-1a of the arguments, so that ranks can check they all got the same flags.
std::uint64_t args_hash(int argc, char** argv);

}  // namespace tslab::calibrate
