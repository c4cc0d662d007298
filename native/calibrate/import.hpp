// `tslab-calibrate import LOG... --out PROFILE.json`: a tslab/calibration@1 profile from nccl-tests
// output (text, any version since the 2019 "error" column, or its -J JSON), fitted as a live run is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"
#include "tslab/collective_ops.hpp"

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
    std::string op;  // tslab op name; "" when the log does not say
    std::int64_t ranks = 0;  // "#  Rank N ..." lines; 0 when the log has none
    std::vector<std::string> hosts;
    std::string device, nccl_version, tests_version;
    std::vector<nccl_tests_row> rows;
    int line = 0;  // of the header
};

std::vector<nccl_tests_table> parse_nccl_tests_text(const std::string& text, const std::string& file);
// -J output, read with the core's typed accessors: a field of the wrong type or range is an
// input_error naming FILE:its.path; fields the importer does not use are left unread.
std::vector<nccl_tests_table> parse_nccl_tests_json(const std::string& text, const std::string& file);
// Either form: JSON when the first non-blank character is '{'.
std::vector<nccl_tests_table> parse_nccl_tests(const std::string& text, const std::string& file);
// "all_reduce_perf", "reduce_scatter_perf_mpi", "./build/alltoall_perf" -> "allreduce", ...; "" when none.
std::string op_from_program(const std::string& program);

struct import_options {
    std::vector<std::string> logs;
    std::string out = "tslab-calibration.json", op, cluster_name;
    std::int64_t ranks = 0, nodes = 0;  // for logs without a device list
};
// What a results table measured: its op, and the ranks and nodes it ran on (from the log, else from
// the options). Throws input_error naming FILE:LINE when the log and the options leave one open,
// or when the busbw/algbw ratio disagrees with the op at that rank count (import_check.cpp).
struct table_shape {
    collective_op op = collective_op::allreduce;
    std::string name;  // the op's tslab name
    std::int64_t ranks = 1, nodes = 1;
};
table_shape resolve_table(const nccl_tests_table& t, const import_options& o);

// The profile; throws input_error naming the file (and line) of the first problem.
calibration_profile import_profile(const import_options& o);

int import_main(int argc, char** argv);

}  // namespace tslab::calibrate
