// Known data for collective correctness checks: what each rank sends and must receive.
#pragma once

#include <cstdint>
#include <string>

#include "tslab/collective_ops.hpp"

namespace tslab::calibrate {

// Small integers, so that float sums over up to 2^16 ranks stay exact.
inline float pattern_value(int rank, std::int64_t i) { return static_cast<float>(rank + 1 + i % 13); }

// nccl-tests' count convention (NVIDIA/nccl-tests src/all_gather.cu, reduce_scatter.cu,
// alltoall.cu *GetCollByteCount): for the ops that split the buffer in n blocks the block is
// (size/4/n) rounded down to 16 bytes, the printed "count" is that block and "size" is block·n·4;
// the other ops have count = size/4. `count` below is always the total elements (size/4).
std::int64_t count_for(collective_op op, int n, std::int64_t bytes);
std::int64_t count_column(collective_op op, int n, std::int64_t count);
// ReduceScatter sends count and receives count/n, AllGather the reverse, the rest count both.
std::int64_t send_count(collective_op op, int n, std::int64_t count);
std::int64_t recv_count(collective_op op, int n, std::int64_t count);

struct check_params {
    int root = 0;  // broadcast and reduce
    std::string redop = "sum";  // sum, min or max
};

void fill_send(collective_op op, int rank, std::int64_t count_send, float* send);
// The receive buffer of an in-place run before it starts (MPI_IN_PLACE / NCCL's sendbuff ==
// recvbuff layouts): this rank's data where the op expects it.
void fill_in_place(collective_op op, int rank, int n, std::int64_t count, float* recv);
// Wrong elements of `recv` on `rank` of `n` (ring shift for sendrecv; only the root of reduce checks).
std::int64_t count_wrong(collective_op op, int rank, int n, std::int64_t count, const float* recv, const check_params& p);

}  // namespace tslab::calibrate
