// CUDA backend collectives: NCCL, one communicator per group, bootstrapped by broadcasting the
// ncclUniqueId over the group's MPI communicator; timed with CUDA events.
#include <memory>

#include "collectives.hpp"

#ifdef TSLAB_HAVE_MPI
#include <mpi.h>
#include <nccl.h>

#include <map>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "cuda_common.hpp"
#include "pattern.hpp"
#include "tslab/errors.hpp"

namespace tslab::calibrate {

namespace {

void nccl_check(ncclResult_t r, const char* what) {
    if (r != ncclSuccess) throw std::runtime_error(fmt::format("{}: {}", what, ncclGetErrorString(r)));
}

class nccl_runner final : public collective_runner {
public:
    explicit nccl_runner(world& w) : w_(w) { cuda_check(cudaStreamCreate(&stream_), "cudaStreamCreate"); }
    ~nccl_runner() override {
        for (auto& [h, c] : comms_) ncclCommDestroy(c);
        cudaStreamDestroy(stream_);
    }
    const char* timer() const override { return "cuda_events"; }
    bool in_place(collective_op) const override { return false; }

    void prepare(collective_op op, const group& g, std::int64_t count, int rotations) override {
        send_.clear(), recv_.clear();
        const auto sb = static_cast<std::size_t>(send_count(op, g.size, count)) * 4;
        const auto rb = static_cast<std::size_t>(recv_count(op, g.size, count)) * 4;
        std::size_t free = 0, total = 0;
        cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
        if ((sb + rb) * static_cast<std::size_t>(rotations) > free * 8 / 10)
            throw input_error("-e", fmt::format("sizes beyond memory: {} B per message needs {:.3g} GB of GPU memory, {:.3g} GB free",
                                                count * 4, static_cast<double>((sb + rb) * rotations) / 1e9, free / 1e9));
        std::vector<float> host(sb / 4);
        fill_send(op, g.rank, static_cast<std::int64_t>(host.size()), host.data());
        for (int i = 0; i < rotations; ++i) {
            send_.emplace_back(std::max<std::size_t>(sb, 4));
            recv_.emplace_back(std::max<std::size_t>(rb, 4));
            cuda_check(cudaMemcpy(send_.back().get(), host.data(), sb, cudaMemcpyHostToDevice), "cudaMemcpy");
        }
    }

    std::int64_t check(collective_op op, const group& g, std::int64_t count) override {
        const auto rb = static_cast<std::size_t>(recv_count(op, g.size, count)) * 4;
        cuda_check(cudaMemset(recv_[0].get(), 0, rb), "cudaMemset");
        once(op, g, count, 0);
        cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
        std::vector<float> host(rb / 4);
        cuda_check(cudaMemcpy(host.data(), recv_[0].get(), rb, cudaMemcpyDeviceToHost), "cudaMemcpy");
        return count_wrong(op, g.rank, g.size, count, host.data());
    }

    double run(collective_op op, const group& g, std::int64_t count, int iters) override {
        cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
        w_.barrier(g);
        return time_on_stream(stream_, iters, [&](int i) { once(op, g, count, static_cast<std::size_t>(i) % send_.size()); });
    }

private:
    world& w_;
    cudaStream_t stream_{};
    std::map<int, ncclComm_t> comms_;
    std::vector<device_buffer> send_, recv_;

    ncclComm_t comm(const group& g) {
        auto it = comms_.find(g.handle);
        if (it != comms_.end()) return it->second;
        ncclUniqueId id{};
        if (g.rank == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
        MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, *static_cast<MPI_Comm*>(w_.native_comm(g)));
        ncclComm_t c;
        nccl_check(ncclCommInitRank(&c, g.size, id, g.rank), "ncclCommInitRank");
        return comms_[g.handle] = c;
    }

    void once(collective_op op, const group& g, std::int64_t count, std::size_t slot) {
        ncclComm_t c = comm(g);
        const void* s = send_[slot].get();
        void* r = recv_[slot].get();
        const int n = g.size;
        const auto cnt = static_cast<std::size_t>(count), block = static_cast<std::size_t>(count / n);
        switch (op) {
            case collective_op::allreduce: nccl_check(ncclAllReduce(s, r, cnt, ncclFloat, ncclSum, c, stream_), "ncclAllReduce"); break;
            case collective_op::reducescatter: nccl_check(ncclReduceScatter(s, r, block, ncclFloat, ncclSum, c, stream_), "ncclReduceScatter"); break;
            case collective_op::allgather: nccl_check(ncclAllGather(s, r, block, ncclFloat, c, stream_), "ncclAllGather"); break;
            case collective_op::alltoall: nccl_check(ncclAlltoAll(s, r, block, ncclFloat, c, stream_), "ncclAlltoAll"); break;
            case collective_op::broadcast: nccl_check(ncclBroadcast(s, r, cnt, ncclFloat, 0, c, stream_), "ncclBroadcast"); break;
            case collective_op::reduce: nccl_check(ncclReduce(s, r, cnt, ncclFloat, ncclSum, 0, c, stream_), "ncclReduce"); break;
            case collective_op::sendrecv:
                nccl_check(ncclGroupStart(), "ncclGroupStart");
                nccl_check(ncclSend(s, cnt, ncclFloat, (g.rank + 1) % n, c, stream_), "ncclSend");
                nccl_check(ncclRecv(r, cnt, ncclFloat, (g.rank + n - 1) % n, c, stream_), "ncclRecv");
                nccl_check(ncclGroupEnd(), "ncclGroupEnd");
                break;
        }
    }
};

}  // namespace

std::unique_ptr<collective_runner> make_nccl_runner(world& w) { return std::make_unique<nccl_runner>(w); }

}  // namespace tslab::calibrate

#else

namespace tslab::calibrate {
std::unique_ptr<collective_runner> make_nccl_runner(world&) { return nullptr; }
}  // namespace tslab::calibrate

#endif
