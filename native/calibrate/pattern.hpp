// Known data for collective correctness checks: what each rank sends and must receive.
#pragma once

#include <cstdint>

#include "tslab/collective_ops.hpp"

namespace tslab::calibrate {

// Small integers, so that float sums over up to 2^16 ranks stay exact.
inline float pattern_value(int rank, std::int64_t i) { return static_cast<float>(rank + 1 + i % 13); }

// Element counts of the send and receive buffers for nccl-tests' `count` (size / 4 bytes):
// ReduceScatter sends count and receives count/n, AllGather the reverse, the rest count both.
std::int64_t send_count(collective_op op, int n, std::int64_t count);
std::int64_t recv_count(collective_op op, int n, std::int64_t count);
// Largest usable count for `bytes`: a multiple of n where the op splits the buffer in n blocks.
std::int64_t count_for(collective_op op, int n, std::int64_t bytes);

void fill_send(collective_op op, int rank, std::int64_t count_send, float* send);
// Wrong elements of `recv` on `rank` of `n` (root 0 for broadcast and reduce; ring shift for sendrecv).
std::int64_t count_wrong(collective_op op, int rank, int n, std::int64_t count, const float* recv);

}  // namespace tslab::calibrate
