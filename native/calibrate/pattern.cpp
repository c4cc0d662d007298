// Expected results of each collective on the pattern data (sum reductions, root 0, ring-shift sendrecv).
#include "pattern.hpp"

namespace tslab::calibrate {

namespace {
bool splits(collective_op op) {
    return op == collective_op::reducescatter || op == collective_op::allgather || op == collective_op::alltoall;
}
float sum_over_ranks(int n, std::int64_t i) {
    double s = 0;
    for (int r = 0; r < n; ++r) s += pattern_value(r, i);
    return static_cast<float>(s);
}
}  // namespace

std::int64_t count_for(collective_op op, int n, std::int64_t bytes) {
    const std::int64_t c = bytes / 4;
    return splits(op) ? c / n * n : c;
}

std::int64_t send_count(collective_op op, int n, std::int64_t count) {
    return op == collective_op::allgather ? count / n : count;
}

std::int64_t recv_count(collective_op op, int n, std::int64_t count) {
    return op == collective_op::reducescatter ? count / n : count;
}

void fill_send(collective_op, int rank, std::int64_t count_send, float* send) {
    for (std::int64_t i = 0; i < count_send; ++i) send[i] = pattern_value(rank, i);
}

std::int64_t count_wrong(collective_op op, int rank, int n, std::int64_t count, const float* recv) {
    const std::int64_t block = count / n;
    std::int64_t wrong = 0;
    auto expect = [&](std::int64_t i) -> float {
        switch (op) {
            case collective_op::allreduce: return sum_over_ranks(n, i);
            case collective_op::reducescatter: return sum_over_ranks(n, rank * block + i);
            case collective_op::allgather: return pattern_value(static_cast<int>(i / block), i % block);
            case collective_op::alltoall: return pattern_value(static_cast<int>(i / block), rank * block + i % block);
            case collective_op::broadcast: return pattern_value(0, i);
            case collective_op::reduce: return sum_over_ranks(n, i);
            case collective_op::sendrecv: return pattern_value((rank + n - 1) % n, i);
        }
        return 0;
    };
    if (op == collective_op::reduce && rank != 0) return 0;  // only the root receives
    const std::int64_t m = recv_count(op, n, count);
    for (std::int64_t i = 0; i < m; ++i) wrong += recv[i] != expect(i) ? 1 : 0;
    return wrong;
}

}  // namespace tslab::calibrate
