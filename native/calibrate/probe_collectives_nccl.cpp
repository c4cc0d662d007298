// CUDA backend collectives: NCCL, one communicator per group (bootstrapped by broadcasting the
// ncclUniqueId over the group's MPI communicator, initialised non-blocking with a deadline), timed
// with CUDA events; every wait is bounded and checks asynchronous errors, and on any failure every
// communicator is aborted (ncclCommAbort) so no kernel is left spinning on a dead peer.
#include <memory>

#include "collectives.hpp"

#ifdef TSLAB_HAVE_MPI
#include <mpi.h>
#include <nccl.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cuda_common.hpp"
#include "pattern.hpp"
#include "probes.hpp"
#include "tslab/errors.hpp"

// ncclAlltoAll appeared in NCCL 2.28 (nccl.h); before it, all-to-all is grouped send/recv.
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
#define TSLAB_NCCL_HAS_ALLTOALL 1
#endif
// Non-blocking init and ncclCommGetAsyncError's ncclInProgress: NCCL 2.14.
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)
#define TSLAB_NCCL_NONBLOCKING 1
#endif

namespace tslab::calibrate {

namespace {

void nccl_check(ncclResult_t r, const char* what) {
    if (r != ncclSuccess && r != ncclInProgress) throw std::runtime_error(fmt::format("{}: {}", what, ncclGetErrorString(r)));
}

int runtime_version() {
    int v = 0;
    ncclGetVersion(&v);
    return v;
}

std::string nccl_version_text(int v) {
    return v >= 10000 ? fmt::format("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100) : fmt::format("{}.{}.{}", v / 1000, (v / 100) % 10, v % 100);
}

ncclRedOp_t nccl_op(const std::string& r) { return r == "min" ? ncclMin : r == "max" ? ncclMax : ncclSum; }

class nccl_runner final : public collective_runner {
public:
    nccl_runner(world& w, bool grouped, int reg, double timeout_s) : w_(w), reg_(reg), timeout_s_(timeout_s) {
        cuda_check(cudaStreamCreate(&stream_), "cudaStreamCreate");
#ifdef TSLAB_NCCL_HAS_ALLTOALL
        grouped_ = grouped || runtime_version() < NCCL_VERSION(2, 28, 0);  // an older library has no ncclAlltoAll
#else
        (void)grouped;
        grouped_ = true;
#endif
    }
    ~nccl_runner() override {
        release();
        for (auto& [h, c] : comms_) aborted_ ? ncclCommAbort(c) : ncclCommDestroy(c);
        cudaStreamDestroy(stream_);
    }
    const char* timer() const override { return "cuda_events"; }
    bool in_place(collective_op) const override { return false; }
    std::string alltoall_impl() const override { return grouped_ ? "grouped send/recv" : "ncclAlltoAll"; }

    void prepare(collective_op op, const group& g, std::int64_t count, int rotations, const check_params& p) override {
        guarded([&] { prepare_buffers(op, g, count, rotations, p); });
    }
    std::int64_t check(collective_op op, const group& g, std::int64_t count, bool in_place) override {
        std::int64_t wrong = 0;
        guarded([&] { wrong = check_once(op, g, count, in_place); });
        return wrong;
    }
    double run(collective_op op, const group& g, std::int64_t count, int iters, bool in_place) override {
        double t = 0;
        guarded([&] {
            w_.barrier(g);
            t = time_on_stream(
                stream_, iters, [&](int i) { once(op, g, count, static_cast<std::size_t>(i) % send_.size(), in_place); }, timeout_s_,
                [&] { poll_async(g); });
        });
        return t;
    }

private:
    world& w_;
    bool grouped_ = true, aborted_ = false;
    int reg_ = 0;
    double timeout_s_ = 0;
    check_params p_;
    cudaStream_t stream_{};
    std::map<int, ncclComm_t> comms_;
    std::vector<device_buffer> send_, recv_;
    std::vector<std::pair<ncclComm_t, void*>> handles_;  // -R 1 registrations

    // Any failure aborts every communicator first, so no NCCL kernel keeps waiting for a dead peer.
    template <class F>
    void guarded(F&& f) {
        try {
            f();
        } catch (...) {
            aborted_ = true;
            for (auto& [h, c] : comms_) ncclCommAbort(c);
            comms_.clear();
            throw;
        }
    }

    void poll_async(const group& g) {
        ncclResult_t state = ncclSuccess;
        nccl_check(ncclCommGetAsyncError(comm(g), &state), "ncclCommGetAsyncError");
        if (state != ncclSuccess && state != ncclInProgress)
            throw std::runtime_error(fmt::format("NCCL asynchronous error on {}: {}", g.label(), ncclGetErrorString(state)));
    }

    void release() {
        for (auto& [c, h] : handles_) ncclCommDeregister(c, h);
        handles_.clear();
        send_.clear(), recv_.clear();
    }

    void prepare_buffers(collective_op op, const group& g, std::int64_t count, int rotations, const check_params& p) {
        release();
        p_ = p;
        const auto sb = static_cast<std::size_t>(send_count(op, g.size, count)) * 4, rb = static_cast<std::size_t>(count) * 4;
        std::size_t free = 0, total = 0;
        cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
        if ((sb + rb) * static_cast<std::size_t>(rotations) > free * 8 / 10)
            throw input_error("-e",
                              msg("calibrate.gpu_memory",
                                  {{"bytes", std::to_string(count * 4)},
                                   {"need", fmt::format("{:.3g}", static_cast<double>((sb + rb) * rotations) / 1e9)},
                                   {"free", fmt::format("{:.3g}", free / 1e9)}}));
        for (int i = 0; i < rotations; ++i) {
            send_.emplace_back(std::max<std::size_t>(sb, 16));
            recv_.emplace_back(std::max<std::size_t>(rb, 16));
            upload(send_.back().get(), op, g, sb / 4, false);
            if (reg_ > 0) register_buffers(g, send_.back().get(), sb, recv_.back().get(), rb);
        }
    }

    void register_buffers(const group& g, void* s, std::size_t sb, void* r, std::size_t rb) {
        for (auto [b, n] : {std::pair{s, sb}, std::pair{r, rb}}) {
            void* h = nullptr;
            nccl_check(ncclCommRegister(comm(g), b, std::max<std::size_t>(n, 16), &h), "ncclCommRegister");
            handles_.emplace_back(comm(g), h);
        }
    }

    void upload(void* dst, collective_op op, const group& g, std::size_t elems, bool in_place_layout) {
        std::vector<float> host(elems, 0.0f);
        if (in_place_layout)
            fill_in_place(op, g.rank, g.size, static_cast<std::int64_t>(elems), host.data());
        else
            fill_send(op, g.rank, static_cast<std::int64_t>(elems), host.data());
        cuda_check(cudaMemcpy(dst, host.data(), elems * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    }

    std::int64_t check_once(collective_op op, const group& g, std::int64_t count, bool in_place) {
        const auto rb = static_cast<std::size_t>(count) * 4;
        cuda_check(cudaMemset(recv_[0].get(), 0, rb), "cudaMemset");
        if (in_place || (op == collective_op::broadcast && g.rank == p_.root)) upload(recv_[0].get(), op, g, static_cast<std::size_t>(count), true);
        cudaEvent_t done;
        cuda_check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
        once(op, g, count, 0, in_place);
        cuda_check(cudaEventRecord(done, stream_), "cudaEventRecord");
        wait_event(done, timeout_s_, [&] { poll_async(g); });
        cudaEventDestroy(done);
        // In-place ReduceScatter leaves this rank's block at rank·block (nccl-tests' recvInplaceOffset).
        const std::size_t off = in_place && op == collective_op::reducescatter ? static_cast<std::size_t>(g.rank * (count / g.size)) : 0;
        std::vector<float> host(static_cast<std::size_t>(count) - off);
        cuda_check(cudaMemcpy(host.data(), static_cast<float*>(recv_[0].get()) + off, rb - off * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
        return count_wrong(op, g.rank, g.size, count, host.data(), p_);
    }

    ncclComm_t comm(const group& g);
    void once(collective_op op, const group& g, std::int64_t count, std::size_t slot, bool in_place);
    void alltoall_grouped(const float* s, float* r, std::size_t block, const group& g, ncclComm_t c);
};

ncclComm_t nccl_runner::comm(const group& g) {
    auto it = comms_.find(g.handle);
    if (it != comms_.end()) return it->second;
    ncclUniqueId id{};
    if (g.rank == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, *static_cast<MPI_Comm*>(w_.native_comm(g)));
    ncclComm_t c = nullptr;
#ifdef TSLAB_NCCL_NONBLOCKING
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;  // returns at once; ncclCommGetAsyncError reports ncclInProgress until ready
    nccl_check(ncclCommInitRankConfig(&c, g.size, id, g.rank, &config), "ncclCommInitRankConfig");
    comms_[g.handle] = c;  // from here a failure aborts it too
    const auto start = std::chrono::steady_clock::now();
    for (ncclResult_t state = ncclInProgress; state == ncclInProgress;) {
        nccl_check(ncclCommGetAsyncError(c, &state), "ncclCommInitRankConfig");
        if (timeout_s_ > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s_)
            throw std::runtime_error(fmt::format("NCCL communicator for {} not ready within -T {:g} s", g.label(), timeout_s_));
        if (state == ncclInProgress) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
#else
    nccl_check(ncclCommInitRank(&c, g.size, id, g.rank), "ncclCommInitRank");
    comms_[g.handle] = c;
#endif
    return c;
}

void nccl_runner::alltoall_grouped(const float* s, float* r, std::size_t block, const group& g, ncclComm_t c) {
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int peer = 0; peer < g.size; ++peer) {
        nccl_check(ncclSend(s + peer * block, block, ncclFloat, peer, c, stream_), "ncclSend");
        nccl_check(ncclRecv(r + peer * block, block, ncclFloat, peer, c, stream_), "ncclRecv");
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
}

void nccl_runner::once(collective_op op, const group& g, std::int64_t count, std::size_t slot, bool ip) {
    ncclComm_t c = comm(g);
    float* r = static_cast<float*>(recv_[slot].get());
    const int n = g.size, root = p_.root;
    const auto cnt = static_cast<std::size_t>(count), block = static_cast<std::size_t>(count / n);
    // In place as nccl-tests: sendbuff inside recvbuff (AllGather at rank·block, the rest at 0).
    const float* s = !ip ? static_cast<const float*>(send_[slot].get()) : op == collective_op::allgather ? r + g.rank * block : r;
    switch (op) {
        case collective_op::allreduce: nccl_check(ncclAllReduce(s, r, cnt, ncclFloat, nccl_op(p_.redop), c, stream_), "ncclAllReduce"); break;
        case collective_op::reducescatter:
            nccl_check(ncclReduceScatter(s, ip ? r + g.rank * block : r, block, ncclFloat, nccl_op(p_.redop), c, stream_), "ncclReduceScatter");
            break;
        case collective_op::allgather: nccl_check(ncclAllGather(s, r, block, ncclFloat, c, stream_), "ncclAllGather"); break;
        case collective_op::alltoall:
#ifdef TSLAB_NCCL_HAS_ALLTOALL
            if (!grouped_) {
                nccl_check(ncclAlltoAll(s, r, block, ncclFloat, c, stream_), "ncclAlltoAll");
                break;
            }
#endif
            alltoall_grouped(s, r, block, g, c);
            break;
        case collective_op::broadcast: nccl_check(ncclBroadcast(s, r, cnt, ncclFloat, root, c, stream_), "ncclBroadcast"); break;
        case collective_op::reduce: nccl_check(ncclReduce(s, r, cnt, ncclFloat, nccl_op(p_.redop), root, c, stream_), "ncclReduce"); break;
        case collective_op::sendrecv:
            nccl_check(ncclGroupStart(), "ncclGroupStart");
            nccl_check(ncclSend(s, cnt, ncclFloat, (g.rank + 1) % n, c, stream_), "ncclSend");
            nccl_check(ncclRecv(r, cnt, ncclFloat, (g.rank + n - 1) % n, c, stream_), "ncclRecv");
            nccl_check(ncclGroupEnd(), "ncclGroupEnd");
            break;
    }
}

}  // namespace

std::string nccl_versions() {
    const int rt = runtime_version();
    std::string s =
        fmt::format("NCCL header {} ({}), library {} ({})", nccl_version_text(NCCL_VERSION_CODE), NCCL_VERSION_CODE, nccl_version_text(rt), rt);
    if (rt < NCCL_VERSION(2, 28, 0)) s += "; all-to-all uses grouped send/recv (ncclAlltoAll needs 2.28)";
    return s;
}

std::unique_ptr<collective_runner> make_nccl_runner(world& w, bool grouped, int local_register, double op_timeout_s) {
    return std::make_unique<nccl_runner>(w, grouped, local_register, op_timeout_s);
}

}  // namespace tslab::calibrate

#else

namespace tslab::calibrate {
std::unique_ptr<collective_runner> make_nccl_runner(world&, bool, int, double) { return nullptr; }
std::string nccl_versions() { return "NCCL: built without MPI, no collectives"; }
}  // namespace tslab::calibrate

#endif
