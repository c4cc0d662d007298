// How the ranks were launched (Slurm, Open MPI, a PMI), whether that agrees with MPI, and who runs where.
#pragma once

#include <string>
#include <vector>

#include "tslab/calibration.hpp"
#include "world.hpp"

namespace tslab::calibrate {

// Before MPI starts: srun without a PMI plugin gives each task a one-rank MPI world, so N tasks
// would each measure alone and each write --out. Returns the stop message, or "" when fine.
std::string launch_problem_before_mpi();
// After MPI starts: a launcher's task count (OMPI_COMM_WORLD_SIZE, PMI_SIZE, or under srun
// SLURM_STEP_NUM_TASKS / SLURM_NTASKS) that differs from the MPI size. "" when they agree.
std::string launch_problem(const world& w);
// "srun (Slurm job 123)", "mpirun (Open MPI)", "PMI", "none".
std::string launcher_name();

// One line per rank, like nccl-tests' "# Using devices" listing (src/util.cu writeDeviceReport):
// "#  Rank  1 Pid  1234 on node-a local rank 1 device 1 [0000:18:00] NVIDIA H100 80GB HBM3".
struct rank_device {
    int index = -1;  // GPU ordinal, -1 for the CPU backend
    std::string bus_id, name, uuid;
    double sm_clock_mhz = 0, max_sm_clock_mhz = 0, power_limit_w = 0;
};
// Gathers every rank's line and device on rank 0, prints the listing there, and fills `p` with the
// hosts, their hash, GPU UUIDs and clocks, the job id, the launcher and the NCCL_* environment.
void describe_ranks(const world& w, const rank_device& mine, const std::string& cluster_name, provenance_info& p);

}  // namespace tslab::calibrate
