// Expected results of each collective on the pattern data (sum/min/max, any root, ring-shift sendrecv).
#include "pattern.hpp"

namespace tslab::calibrate {

namespace {
bool splits(collective_op op) { return op == collective_op::reducescatter || op == collective_op::allgather || op == collective_op::alltoall; }
// pattern_value grows with the rank, so min is rank 0's value and max rank n-1's.
float reduced(int n, std::int64_t i, const std::string& redop) {
    if (redop == "min") return pattern_value(0, i);
    if (redop == "max") return pattern_value(n - 1, i);
    double s = 0;
    for (int r = 0; r < n; ++r) s += pattern_value(r, i);
    return static_cast<float>(s);
}
}  // namespace

std::int64_t count_for(collective_op op, int n, std::int64_t bytes) {
    const std::int64_t c = bytes / 4;
    if (!splits(op)) return c;
    const std::int64_t block = (c / n) & ~std::int64_t{3};  // & ~(16/eltSize - 1), eltSize 4
    return block * n;
}

std::int64_t count_column(collective_op op, int n, std::int64_t count) { return splits(op) ? count / n : count; }

std::int64_t send_count(collective_op op, int n, std::int64_t count) { return op == collective_op::allgather ? count / n : count; }

std::int64_t recv_count(collective_op op, int n, std::int64_t count) { return op == collective_op::reducescatter ? count / n : count; }

void fill_send(collective_op, int rank, std::int64_t count_send, float* send) {
    for (std::int64_t i = 0; i < count_send; ++i) send[i] = pattern_value(rank, i);
}

void fill_in_place(collective_op op, int rank, int n, std::int64_t count, float* recv) {
    const std::int64_t block = count / n;
    if (op == collective_op::allgather)
        for (std::int64_t j = 0; j < block; ++j) recv[rank * block + j] = pattern_value(rank, j);
    else
        fill_send(op, rank, count, recv);
}

std::int64_t count_wrong(collective_op op, int rank, int n, std::int64_t count, const float* recv, const check_params& p) {
    const std::int64_t block = count / n;
    auto expect = [&](std::int64_t i) -> float {
        switch (op) {
            case collective_op::allreduce: return reduced(n, i, p.redop);
            case collective_op::reducescatter: return reduced(n, rank * block + i, p.redop);
            case collective_op::allgather: return pattern_value(static_cast<int>(i / block), i % block);
            case collective_op::alltoall: return pattern_value(static_cast<int>(i / block), rank * block + i % block);
            case collective_op::broadcast: return pattern_value(p.root, i);
            case collective_op::reduce: return reduced(n, i, p.redop);
            case collective_op::sendrecv: return pattern_value((rank + n - 1) % n, i);
        }
        return 0;
    };
    if (op == collective_op::reduce && rank != p.root) return 0;  // only the root receives
    std::int64_t wrong = 0;
    const std::int64_t m = recv_count(op, n, count);
    for (std::int64_t i = 0; i < m; ++i) wrong += recv[i] != expect(i) ? 1 : 0;
    return wrong;
}

}  // namespace tslab::calibrate
