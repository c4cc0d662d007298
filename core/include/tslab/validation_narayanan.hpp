// Validation against Narayanan et al. (arXiv 2104.04473) Table 1: ten GPT models, 1.7B..1T, on
// DGX A100 (Selene), full recompute, s = 2048, V = 51200; achieved TF/s per GPU as published.
#pragma once

#include <cstdint>
#include <vector>

#include "tslab/scenario.hpp"
#include "tslab/step.hpp"

namespace tslab {

struct narayanan_row {
    const char* model;  // preset name
    std::int64_t tp, pp, gpus, batch;
    double published_tflops;  // achieved teraFLOP/s per GPU, Table 1
    std::int64_t vpp;  // not in Table 1: our assumption, see validation_narayanan.cpp
};

const std::vector<narayanan_row>& narayanan_table1();

// The row as a scenario on dgx-a100-80gb: micro-batch 1 (Table 1 gives none), fp16 mixed
// precision, full recompute, no FlashAttention (2021), interleaved 1F1B where pp > 1 (section 5.1).
scenario narayanan_scenario(const narayanan_row& r);

// 96 B s l h² (1 + s/(6h) + V/(16 l h)): FLOPs per iteration, eq. 3 of the paper.
double narayanan_flops(double B, double s, double l, double h, double V);

struct narayanan_prediction {
    step_result step;  // the integrated step model (build_report)
    double flops = 0;  // eq. 3 for the row
    double predicted_tflops = 0;  // eq. 3 / (predicted time × GPUs), the paper's own convention
    double error = 0;  // predicted / published − 1
};

narayanan_prediction predict_narayanan(const narayanan_row& r);
// The same on an already parsed narayanan_scenario(r), or a variant of it.
narayanan_prediction predict_narayanan(const narayanan_row& r, const scenario& s);

}  // namespace tslab
