// CPU backend: the collectives with MPI between processes, out of place and in place, timed with a steady clock.
#include <chrono>
#include <memory>
#include <vector>

#include "collectives.hpp"
#include "pattern.hpp"

#ifdef TSLAB_HAVE_MPI
#include <mpi.h>

namespace tslab::calibrate {

namespace {

MPI_Op mpi_op(const std::string& redop) { return redop == "min" ? MPI_MIN : redop == "max" ? MPI_MAX : MPI_SUM; }

class mpi_runner final : public collective_runner {
public:
    mpi_runner(world& w, bool grouped) : w_(w), grouped_(grouped) {}
    const char* timer() const override { return "steady_clock"; }
    bool in_place(collective_op op) const override { return op == collective_op::broadcast; }  // MPI_Bcast: one buffer
    std::string alltoall_impl() const override { return grouped_ ? "grouped send/recv" : "MPI_Alltoall"; }

    void prepare(collective_op op, const group& g, std::int64_t count, int rotations, const check_params& p) override {
        p_ = p;
        send_.assign(static_cast<std::size_t>(rotations), {});
        recv_.assign(static_cast<std::size_t>(rotations), {});
        for (int i = 0; i < rotations; ++i) {
            auto& s = send_[static_cast<std::size_t>(i)];
            s.resize(static_cast<std::size_t>(std::max<std::int64_t>(send_count(op, g.size, count), 1)));
            fill_send(op, g.rank, static_cast<std::int64_t>(s.size()), s.data());
            recv_[static_cast<std::size_t>(i)].assign(static_cast<std::size_t>(std::max<std::int64_t>(count, 1)), 0.0f);
        }
    }

    std::int64_t check(collective_op op, const group& g, std::int64_t count, bool in_place) override {
        auto& recv = recv_[0];
        std::fill(recv.begin(), recv.end(), 0.0f);
        if (in_place || (op == collective_op::broadcast && g.rank == p_.root)) fill_in_place(op, g.rank, g.size, count, recv.data());
        once(op, g, count, 0, in_place);
        return count_wrong(op, g.rank, g.size, count, recv.data(), p_);
    }

    double run(collective_op op, const group& g, std::int64_t count, int iters, bool in_place) override {
        w_.barrier(g);
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < iters; ++i) once(op, g, count, static_cast<std::size_t>(i) % send_.size(), in_place);
        const auto t1 = std::chrono::steady_clock::now();  // blocking calls: this rank is done
        return std::chrono::duration<double>(t1 - t0).count() / iters;
    }

private:
    world& w_;
    bool grouped_;
    check_params p_;
    std::vector<std::vector<float>> send_, recv_;

    // All-to-all as n-1 paired non-blocking sends and receives plus the local block.
    void grouped_alltoall(const float* s, float* r, int block, int n, int me, MPI_Comm c) {
        std::vector<float> staged;
        if (s == r) staged.assign(r, r + static_cast<std::ptrdiff_t>(block) * n), s = staged.data();
        std::vector<MPI_Request> reqs;
        for (int peer = 0; peer < n; ++peer) {
            if (peer == me) continue;
            reqs.emplace_back(), MPI_Irecv(r + peer * block, block, MPI_FLOAT, peer, 7, c, &reqs.back());
            reqs.emplace_back(), MPI_Isend(s + peer * block, block, MPI_FLOAT, peer, 7, c, &reqs.back());
        }
        std::copy(s + me * block, s + (me + 1) * block, r + me * block);
        MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
    }

    void once(collective_op op, const group& g, std::int64_t count, std::size_t slot, bool ip) {
        MPI_Comm c = *static_cast<MPI_Comm*>(w_.native_comm(g));
        float* s = send_[slot].data();
        float* r = recv_[slot].data();
        const int n = g.size, root = p_.root;
        const int cnt = static_cast<int>(count), block = static_cast<int>(count / n);
        void* in = ip ? MPI_IN_PLACE : s;
        switch (op) {
            case collective_op::allreduce: MPI_Allreduce(in, r, cnt, MPI_FLOAT, mpi_op(p_.redop), c); break;
            case collective_op::reducescatter: MPI_Reduce_scatter_block(in, r, block, MPI_FLOAT, mpi_op(p_.redop), c); break;
            case collective_op::allgather: MPI_Allgather(in, block, MPI_FLOAT, r, block, MPI_FLOAT, c); break;
            case collective_op::alltoall:
                if (grouped_)
                    grouped_alltoall(ip ? r : s, r, block, n, g.rank, c);
                else
                    MPI_Alltoall(in, block, MPI_FLOAT, r, block, MPI_FLOAT, c);
                break;
            case collective_op::broadcast: MPI_Bcast(r, cnt, MPI_FLOAT, root, c); break;
            case collective_op::reduce:
                MPI_Reduce(ip && g.rank == root ? MPI_IN_PLACE : (ip ? r : s), r, cnt, MPI_FLOAT, mpi_op(p_.redop), root, c);
                break;
            case collective_op::sendrecv:
                if (ip)
                    MPI_Sendrecv_replace(r, cnt, MPI_FLOAT, (g.rank + 1) % n, 0, (g.rank + n - 1) % n, 0, c, MPI_STATUS_IGNORE);
                else
                    MPI_Sendrecv(s, cnt, MPI_FLOAT, (g.rank + 1) % n, 0, r, cnt, MPI_FLOAT, (g.rank + n - 1) % n, 0, c, MPI_STATUS_IGNORE);
                break;
        }
    }
};

}  // namespace

std::unique_ptr<collective_runner> make_mpi_runner(world& w, bool grouped) { return std::make_unique<mpi_runner>(w, grouped); }

}  // namespace tslab::calibrate

#else

namespace tslab::calibrate {
std::unique_ptr<collective_runner> make_mpi_runner(world&, bool) { return nullptr; }
}  // namespace tslab::calibrate

#endif
