// `tslab-calibrate import LOG... --out PROFILE.json`: a tslab/calibration@1 profile from nccl-tests
// output (text, any version since the 2019 "error" column, or its -J JSON), fitted as a live run is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"

namespace tslab::calibrate {

// One row of a results table: the out-of-place columns (the fit uses them, as a live run does).
struct nccl_tests_row {
    std::int64_t bytes = 0, count = 0;
    double time_us = 0, algbw_GBps = 0, busbw_GBps = 0;
    bool wrong = false;  // #wrong > 0 (or, before #wrong existed, an "error" above 1e-3)
    int line = 0;
};

// One results table with what the log says about it.
struct nccl_tests_table {
    std::string file, program;  // program: "all_reduce_perf" when the log names it
    std::string op;             // tslab op name; "" when the log does not say
    std::int64_t ranks = 0;     // "#  Rank N ..." lines; 0 when the log has none
    std::vector<std::string> hosts;
    std::string device, nccl_version, tests_version;
    std::vector<nccl_tests_row> rows;
    int line = 0;  // of the header
};

std::vector<nccl_tests_table> parse_nccl_tests_text(const std::string& text, const std::string& file);
std::vector<nccl_tests_table> parse_nccl_tests_json(const std::string& text, const std::string& file);
// "all_reduce_perf", "reduce_scatter_perf_mpi", "./build/alltoall_perf" -> "allreduce", ...; "" when none.
std::string op_from_program(const std::string& program);

struct import_options {
    std::vector<std::string> logs;
    std::string out = "tslab-calibration.json", op, cluster_name;
    std::int64_t ranks = 0, nodes = 0;  // for logs without a device list
};
// The profile; throws input_error naming the file (and line) of the first problem.
calibration_profile import_profile(const import_options& o);

int import_main(int argc, char** argv);

}  // namespace tslab::calibrate
