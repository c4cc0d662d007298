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
    // The policy's figures (checkpoint_policy below); the 4-argument ledger leaves them as
    // a synchronous checkpoint at Daly's interval with the given restart.
    double snapshot_bytes_per_gpu = 0, snapshot_s = 0;  // device-to-host copy of one GPU's state
    double blocking_s = 0;  // what the job stalls per checkpoint
    double young_s = 0, daly_s = 0;  // optimal intervals for blocking_s
    double restart_total_s = 0;  // restart + reading the checkpoint back
    bool async = false;
};

// What one checkpoint policy costs. Synchronous: the job stalls for the whole storage write.
// Asynchronous (as PyTorch DCP async_save and Megatron's async checkpointing do): it stalls only
// while each GPU copies its state to host memory, the write to storage runs behind training.
// The copy is not hidden, so blocking = snapshot; the write is hidden as long as it finishes
// before the next checkpoint (the interval is raised to the write time when shorter).
// Restart cost = restart_s + total / storage (every rank reads its shard back).
struct checkpoint_inputs {
    double total_bytes = 0, snapshot_bytes_per_gpu = 0;
    double storage_Bps = 0, host_Bps = 0;
    double rate_per_gpu_s = 0, gpus = 1, restart_s = 0;
    double interval_s = 0;  // 0: Daly's optimum for the blocking time
    bool async = false;
};
reliability_report checkpoint_policy(const checkpoint_inputs& in);

// The scenario's policy (training.reliability), with snapshot bytes from the memory ledger's
// model state on the busiest GPU (params, master, optimizer states: memory.hpp).
reliability_report reliability_of_scenario(const scenario& s, double snapshot_bytes_per_gpu);

// The job's figures: checkpoint of `s`, at `storage_Bps`, `rate_per_gpu_s` on s's world size,
// Daly interval, goodput with `restart_s`.
reliability_report reliability_ledger(const scenario& s, double storage_Bps, double rate_per_gpu_s, double restart_s);

}  // namespace tslab
