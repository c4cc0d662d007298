// Collective descriptor table (nccl-tests src/common.h and doc/PERFORMANCE.md factors).
#include "tslab/collective_ops.hpp"

namespace tslab {

namespace {
double two_ring(double n) { return n > 1 ? 2.0 * (n - 1.0) / n : 0.0; }
double one_ring(double n) { return n > 1 ? (n - 1.0) / n : 0.0; }
double unity(double) { return 1.0; }
}  // namespace

const std::array<collective_desc, 7>& collective_table() {
    static const std::array<collective_desc, 7> table = {{
        {collective_op::allreduce, "allreduce", two_ring, two_ring},
        {collective_op::reducescatter, "reducescatter", one_ring, one_ring},
        {collective_op::allgather, "allgather", one_ring, one_ring},
        {collective_op::alltoall, "alltoall", one_ring, one_ring},
        {collective_op::broadcast, "broadcast", unity, unity},
        {collective_op::reduce, "reduce", unity, unity},
        {collective_op::sendrecv, "sendrecv", unity, unity},
    }};
    return table;
}

const collective_desc& describe(collective_op op) { return collective_table()[static_cast<std::size_t>(op)]; }

std::optional<collective_op> collective_from_name(std::string_view name) {
    for (const auto& d : collective_table())
        if (name == d.name) return d.op;
    return std::nullopt;
}

}  // namespace tslab
