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
    // nccl-tests' meanings (NVIDIA/nccl-tests src/common.cu): -a time across ranks (0 rank 0,
    // 1 mean = its default, 2 min, 3 max), -c check iterations (0: no check, #wrong N/A), -o the
    // reduction, -r the root of broadcast/reduce, -R buffer registration (cuda), -T per-point timeout.
    int average = 1, check_iters = 1, root = 0, local_register = 0;
    std::string redop = "sum";
    double op_timeout_s = 300;  // -T: a point that has not finished by then fails every rank (0: none)
    std::string cluster_name;  // --cluster-name; default: the hostnames' common prefix
    std::vector<collective_op> ops;  // collectives to sweep
    bool gemm = true, memory = true;  // the non-collective probes
    bool quick = false;
    bool ops_given = false;  // --ops chose the probes; otherwise the backend's defaults apply
    std::string out = "tslab-calibration.json";
    std::string scenario;  // measure this scenario's GEMM shapes and message sizes too
    double timeout_s = 0;  // 0: none
    std::string backend;  // "cuda" or "cpu"; empty until resolved
    bool alltoall_sendrecv = false;  // hidden --alltoall-sendrecv: all-to-all as grouped send/recv (the NCCL < 2.28 path)
    bool help = false;  // --help: print usage() and exit
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
