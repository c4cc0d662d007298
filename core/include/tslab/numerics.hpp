// L8 numerics: the dtype recipe table (storage, GEMM input, accumulate, update), the FP8 GEMM
// speed-up and the bytes of FP8 block-scaling factors (DeepSeek-V3, arXiv 2412.19437 section 3.3).
#pragma once

#include <string>
#include <vector>

#include "tslab/compute.hpp"
#include "tslab/messages.hpp"
#include "tslab/scenario.hpp"
#include "tslab/vocabulary.hpp"

namespace tslab {

// One row of the recipe as the report shows it: what, its dtype name, why.
struct recipe_row {
    std::string role;  // "params (storage)", "GEMM input", "GEMM accumulate", "weight update", ...
    std::string dtype;  // "bf16", "fp8 e4m3", "fp32", "none"
    std::string note;
};

struct numerics_report {
    std::string recipe;
    std::vector<recipe_row> rows;
    double fp8_speedup = 1;  // the FP8-eligible GEMMs at bf16 / at fp8 (compute.hpp fp8_speedup), else 1
    double weight_scale_bytes = 0;  // whole model: one fp32 scale per 128×128 weight block
    double activation_scale_bytes = 0;  // per layer, micro-batch and rank: one fp32 per 1×128 tile
    double activation_fp8_bytes = 0;  // the FP8 GEMM inputs those scales belong to (same unit)
    message notes_msg;  // messages.hpp
    std::string notes;  // its English text
    void set_notes(message m) { notes = english(m), notes_msg = std::move(m); }
};

// Ratio of the GPU's dense FP8 and BF16 peaks; 1 when the recipe's gemm is not fp8 or when the
// GPU has no FP8 tensor cores (A100), which the notes then say.

// fp32 scales (4 bytes each) for a rows × cols tensor cut into block_rows × block_cols blocks,
// partial blocks rounded up: 1×128 tiles for activations, 128×128 blocks for weights.
double block_scale_bytes(double rows, double cols, double block_rows, double block_cols);

numerics_report describe_numerics(const scenario& s);

// The scaling row the scenario's recipe runs: with FP8 GEMMs the blockwise one (recipe_rows'
// fp8-mixed is DeepSeek-V3's: 1×128 / 128×128 tiles), else the BF16 row.
const scaling_desc& active_scaling(const precision_spec& p);

// The FP8 cast (quantise) kernels of one layer's forward GEMMs, one micro-batch, one rank: each
// FP8-eligible GEMM's A operand (activations, m·batch × k) is read in bf16 (2 B) and written in
// fp8 (1 B) with one fp32 scale per tile; per-tensor current scaling reads it once more for the
// amax (2 B). bytes = elems·(2 + 1 + amax) + scales·scale_bytes. Memory-bound: the step times them
// at the HBM bandwidth (compute_time.cpp), the numerics section reports them (numerics_section.cpp).
struct fp8_cast {
    double elems = 0, scales = 0, bytes = 0;
};
fp8_cast fp8_cast_of(const std::vector<gemm_call>& gemms, const scaling_desc& d);

// Whether the step pays for casts: FP8 GEMMs on a GPU with FP8 tensor cores (else the GEMMs run
// in BF16 and nothing is quantised).
bool fp8_casts_active(const scenario& s);

}  // namespace tslab
