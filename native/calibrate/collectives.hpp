// The collective sweep, shared by the MPI (cpu) and NCCL (cuda) backends: each backend only
// moves the bytes; sizes, checks, repeats, tables and recording live here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness.hpp"
#include "pattern.hpp"

namespace tslab::calibrate {

class collective_runner {
public:
    virtual ~collective_runner() = default;
    virtual const char* timer() const = 0;  // "steady_clock" or "cuda_events"
    virtual bool in_place(collective_op op) const = 0;  // whether the out-of-place run is one buffer anyway
    // How all-to-all is done: "MPI_Alltoall", "ncclAlltoAll" or "grouped send/recv" (the fallback).
    virtual std::string alltoall_impl() const = 0;
    // Bytes one rank allocates for a message of `bytes` (all rotations, send and receive).
    virtual std::int64_t footprint(std::int64_t bytes) const { return 2 * bytes * rotations_for(bytes); }
    // Allocates `rotations` buffer pairs for `count` elements and fills them with the pattern.
    virtual void prepare(collective_op op, const group& g, std::int64_t count, int rotations, const check_params& p) = 0;
    // Runs once (out of place or in place) and returns this rank's wrong elements.
    virtual std::int64_t check(collective_op op, const group& g, std::int64_t count, bool in_place) = 0;
    // Runs `iters` times over the rotated buffers and returns seconds per iteration on this rank.
    virtual double run(collective_op op, const group& g, std::int64_t count, int iters, bool in_place) = 0;
};

// Sweeps every op in `o.ops` over `sizes` on every group partition. Returns false when stopped.
bool sweep_collectives(world& w, collective_runner& r, const options& o, const std::vector<std::int64_t>& sizes, recorder& rec, progress& bar);

// The CPU backend: MPI collectives between processes (probe_collectives_mpi.cpp). With
// `grouped_alltoall` all-to-all is n-1 paired MPI_Isend/MPI_Irecv, the CPU equivalent of the
// NCCL < 2.28 fallback (grouped ncclSend/ncclRecv), so the fallback's data path is tested.
std::unique_ptr<collective_runner> make_mpi_runner(world& w, bool grouped_alltoall);

}  // namespace tslab::calibrate
