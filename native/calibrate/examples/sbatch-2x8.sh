#!/bin/bash
# tslab-calibrate on two nodes of 8 GPUs under Slurm: one rank per GPU, launched by srun with PMIx
# (without --mpi=pmix srun starts 16 one-rank MPI worlds; tslab-calibrate detects that and stops).
#SBATCH --job-name=tslab-calibrate
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=8
#SBATCH --time=01:00:00
#SBATCH --exclusive
# Slurm sends SIGTERM at the time limit (then SIGKILL after KillWait): tslab-calibrate keeps the
# partial profile ("complete": false) and exits 3. --signal asks for the TERM 5 minutes early.
#SBATCH --signal=TERM@300
set -euo pipefail

CAL=${CAL:-$PWD/build/native/calibrate/tslab-calibrate}
OUT=${OUT:-$PWD/profile-${SLURM_JOB_ID}.json}   # on a shared file system: rank 0 writes it
SCENARIO=${SCENARIO:-}                           # optional tslab/scenario@1: its GEMM shapes and messages

# NCCL settings are recorded in the profile (provenance.nccl_env); set them here, not per rank.
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}

srun --mpi=pmix --kill-on-bad-exit=1 "$CAL" --backend cuda \
    -b 8 -e 1G -f 2 -n 20 -w 5 -k 5 -T 300 --timeout 3000 \
    --cluster-name "${SLURM_CLUSTER_NAME:-cluster}" \
    ${SCENARIO:+--scenario "$SCENARIO"} --out "$OUT"
