// L9 reliability: checkpoint bytes and write time, job MTBF from a per-GPU failure rate, the
// Young/Daly checkpoint interval and the expected goodput with restart cost.
#pragma once

#include "tslab/scenario.hpp"

namespace tslab {

// Whole-model checkpoint: params, master copy and optimizer states per the precision recipe
// (gradients are not saved). Bytes, SI.
struct checkpoint_size {
    double params = 0, master = 0, optimizer = 0;
    double total() const { return params + master + optimizer; }
};
checkpoint_size checkpoint_bytes(const scenario& s);

double checkpoint_write_s(double bytes, double storage_Bps);

// Failures per GPU-second implied by `failures` over `days` on `gpus` GPUs.
double failure_rate_per_gpu_s(double failures, double days, double gpus);

// Job MTBF in seconds: 1 / (rate per GPU × GPUs) (independent, exponential failures).
double job_mtbf_s(double rate_per_gpu_s, double gpus);

// Young (1974): τ = sqrt(2·δ·M), δ the checkpoint write time, M the MTBF.
double young_interval_s(double delta_s, double mtbf_s);

// Daly (2006), higher order: τ = sqrt(2δM)·[1 + (1/3)·sqrt(δ/(2M)) + δ/(18M)] − δ for
// δ < 2M, else τ = M.
double daly_interval_s(double delta_s, double mtbf_s);

// Expected useful time / wall time with compute τ between checkpoints, write time δ, restart R,
// exponential failures of mean M (Daly 2006, wall time per unit of work):
// goodput = τ / (M·e^{R/M}·(e^{(τ+δ)/M} − 1)).
double expected_goodput(double interval_s, double delta_s, double restart_s, double mtbf_s);

struct reliability_report {
    checkpoint_size checkpoint;
    double write_s = 0, mtbf_s = 0, interval_s = 0, goodput = 1;
};

// The job's figures: checkpoint of `s`, at `storage_Bps`, `rate_per_gpu_s` on s's world size,
// Daly interval, goodput with `restart_s`.
reliability_report reliability_ledger(const scenario& s, double storage_Bps, double rate_per_gpu_s, double restart_s);

}  // namespace tslab
