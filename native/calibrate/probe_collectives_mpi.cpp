// CPU backend: the collectives with MPI between processes, timed with a steady clock.
#include <chrono>
#include <memory>
#include <vector>

#include "collectives.hpp"
#include "pattern.hpp"

#ifdef TSLAB_HAVE_MPI
#include <mpi.h>

namespace tslab::calibrate {

namespace {

class mpi_runner final : public collective_runner {
public:
    explicit mpi_runner(world& w) : w_(w) {}
    const char* timer() const override { return "steady_clock"; }
    // MPI_Bcast has a single buffer; every other op here is out of place.
    bool in_place(collective_op op) const override { return op == collective_op::broadcast; }

    void prepare(collective_op op, const group& g, std::int64_t count, int rotations) override {
        send_.assign(static_cast<std::size_t>(rotations), {});
        recv_.assign(static_cast<std::size_t>(rotations), {});
        for (int i = 0; i < rotations; ++i) {
            auto& s = send_[static_cast<std::size_t>(i)];
            s.resize(static_cast<std::size_t>(send_count(op, g.size, count)));
            fill_send(op, g.rank, static_cast<std::int64_t>(s.size()), s.data());
            recv_[static_cast<std::size_t>(i)].assign(static_cast<std::size_t>(recv_count(op, g.size, count)), 0.0f);
        }
    }

    std::int64_t check(collective_op op, const group& g, std::int64_t count) override {
        auto& recv = recv_[0];
        std::fill(recv.begin(), recv.end(), 0.0f);
        if (op == collective_op::broadcast && g.rank == 0) recv = send_[0];
        once(op, g, count, 0);
        return count_wrong(op, g.rank, g.size, count, recv.data());
    }

    double run(collective_op op, const group& g, std::int64_t count, int iters) override {
        w_.barrier(g);
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < iters; ++i) once(op, g, count, static_cast<std::size_t>(i) % send_.size());
        const auto t1 = std::chrono::steady_clock::now();  // blocking calls: this rank is done
        return std::chrono::duration<double>(t1 - t0).count() / iters;
    }

private:
    world& w_;
    std::vector<std::vector<float>> send_, recv_;

    void once(collective_op op, const group& g, std::int64_t count, std::size_t slot) {
        MPI_Comm c = *static_cast<MPI_Comm*>(w_.native_comm(g));
        float* s = send_[slot].data();
        float* r = recv_[slot].data();
        const int n = g.size;
        const int cnt = static_cast<int>(count), block = static_cast<int>(count / n);
        switch (op) {
            case collective_op::allreduce: MPI_Allreduce(s, r, cnt, MPI_FLOAT, MPI_SUM, c); break;
            case collective_op::reducescatter: MPI_Reduce_scatter_block(s, r, block, MPI_FLOAT, MPI_SUM, c); break;
            case collective_op::allgather: MPI_Allgather(s, block, MPI_FLOAT, r, block, MPI_FLOAT, c); break;
            case collective_op::alltoall: MPI_Alltoall(s, block, MPI_FLOAT, r, block, MPI_FLOAT, c); break;
            case collective_op::broadcast: MPI_Bcast(r, cnt, MPI_FLOAT, 0, c); break;
            case collective_op::reduce: MPI_Reduce(s, r, cnt, MPI_FLOAT, MPI_SUM, 0, c); break;
            case collective_op::sendrecv:
                MPI_Sendrecv(s, cnt, MPI_FLOAT, (g.rank + 1) % n, 0, r, cnt, MPI_FLOAT, (g.rank + n - 1) % n, 0, c,
                             MPI_STATUS_IGNORE);
                break;
        }
    }
};

}  // namespace

std::unique_ptr<collective_runner> make_mpi_runner(world& w) { return std::make_unique<mpi_runner>(w); }

}  // namespace tslab::calibrate

#else

namespace tslab::calibrate {
std::unique_ptr<collective_runner> make_mpi_runner(world&) { return nullptr; }
}  // namespace tslab::calibrate

#endif
