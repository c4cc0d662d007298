// The one descriptor table of collective operations, shared by the model and the calibration
// binary so predicted and measured bus bandwidth use the same convention (nccl-tests
// doc/PERFORMANCE.md: busbw = algbw × factor).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace tslab {

enum class collective_op { allreduce, reducescatter, allgather, alltoall, broadcast, reduce, sendrecv };

struct collective_desc {
    collective_op op;
    const char* name;  // the op name used in specs, reports and profiles
    // Bytes each rank sends over the wire per byte of message S, as a function of n ranks
    // (ring algorithms): AllReduce 2(n−1)/n, ReduceScatter/AllGather/AllToAll (n−1)/n, others 1.
    double (*wire_factor)(double n);
    // nccl-tests bus-bandwidth factor: identical to the wire factor by construction.
    double (*busbw_factor)(double n);
};

const std::array<collective_desc, 7>& collective_table();
const collective_desc& describe(collective_op op);
std::optional<collective_op> collective_from_name(std::string_view name);

}  // namespace tslab
