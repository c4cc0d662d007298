// The report's `numerics` section (L8 panel): the scaling recipes side by side (BF16, FP8 per-tensor,
// FP8 blockwise as DeepSeek-V3, MXFP8 on Blackwell) with what each saves and costs, and the
// optimizer comparison (optimizer_comm.hpp). A report section, not a `tslab numerics` command: it
// needs the scenario's GEMM list, stage layout and GPU curves, which the report already resolves,
// and the panel wants it next to the step segments of the same report.
#pragma once

#include <string>
#include <vector>

#include "tslab/compute.hpp"
#include "tslab/json_writer.hpp"
#include "tslab/messages.hpp"
#include "tslab/optimizer_comm.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

struct scaling_row {
    std::string name, label;
    bool available = true;
    bool current = false;  // the row the scenario's recipe runs
    std::string unavailable;  // why not, when !available (no FP8 tensor cores, no MX scaling)
    message unavailable_msg;  // the same as a message id (messages.hpp); JSON null when available
    // Stages: storage (params), GEMM input, accumulation, gradient reduction, update.
    std::string storage, gemm_input, accumulate, reduction, update;
    message accumulate_msg;  // accumulate as a message id
    double promote_every = 0;
    // Per layer and micro-batch, one rank: FP8 GEMM-input bytes (activations), their scales, the
    // bytes the cast kernels move (read bf16, write fp8 + scales; per-tensor: one extra amax read).
    double gemm_input_bytes = 0, activation_scale_bytes = 0, cast_bytes = 0, cast_s = 0;
    double input_bytes_saved = 0;  // bf16 input bytes − (fp8 bytes + scales)
    double weight_scale_bytes = 0;  // whole model
    double gemm_s = 0, gemm_saved_s = 0;  // per step on the busiest stage: FP8-eligible GEMMs
    std::string source;
};

struct numerics_section {
    std::string recipe;  // the scenario's
    double eligible_gemm_bf16_s = 0;  // per step: 3 × m × Σ (stage's FP8-eligible forward GEMMs at bf16)
    double fp8_speedup = 1;  // fp8_speedup() of the scenario with FP8 GEMMs
    std::string gemm_formula;
    message gemm_formula_msg;
    std::vector<scaling_row> rows;
    optimizer_compare optimizer;
};

// Scales of a rows × cols tensor in br × bc blocks (0 × 0: one per tensor), partial blocks rounded up.
double block_scale_count(double rows, double cols, double block_rows, double block_cols);

numerics_section numerics_section_of(const scenario& s, const compute_estimate& c);
void write_numerics_section(json_writer& w, const numerics_section& n);

}  // namespace tslab
