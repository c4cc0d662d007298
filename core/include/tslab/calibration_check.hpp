// Predicted versus measured for every probe of a calibration profile (what `tslab validate` prints).
#pragma once

#include <string>
#include <vector>

#include "tslab/calibration.hpp"
#include "tslab/messages.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

struct probe_check {
    std::string kind;  // "collective", "gemm" or "memory"
    std::string probe;  // e.g. "allreduce ×2 intra", "gemm bf16 4096×4096×4096", "memory d2d"
    double size = 0;  // bytes (collective, memory) or FLOPs (gemm)
    double measured_s = 0, predicted_s = 0;
    double error_rel = 0;  // (predicted − measured) / measured
};

struct check_report {
    std::string predicted_by;  // "profile fits" or the scenario cluster's source
    std::vector<probe_check> rows;
    double median_abs_error = 0, max_abs_error = 0;
    std::vector<std::string> warnings;  // calibration_warnings(): the profile against the cluster
    std::vector<message> warnings_msg;  // the same as message ids
};

// Without a cluster, each probe is predicted by the profile's own fits (how well the model
// form explains the data). With a cluster, by its link tiers, GEMM peak (or calibrated
// curve) and memory figures: a collective takes latency + S·busbw_factor(n)/bandwidth, the
// nccl-tests convention (doc/PERFORMANCE.md), a GEMM 2mnk/peak. Probes that the cluster has no
// figure for are left out.
check_report check_profile(const calibration_profile& p, const cluster_spec* cluster, std::int64_t world = 0);

json check_to_json(const check_report& c);
// Facade for the browser and the CLI: profile JSON text (+ optional scenario text, "" for none)
// in, the check_to_json object out as text. Throws input_error naming the path.
std::string validation_json_text(const std::string& profile_text, const std::string& scenario_text);
std::string check_table(const check_report& c);

}  // namespace tslab
