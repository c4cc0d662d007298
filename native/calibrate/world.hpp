// The ranks of a calibration run: MPI when launched by mpirun/srun, otherwise one process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"

namespace tslab::calibrate {

// FNV-1a (64-bit) of a string, continuing from h: the fingerprint ranks compare to agree on hosts and
// options without sending the text itself.
inline std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 1469598103934665603ULL) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return h;
}

// One partition of the world into equal groups: every rank belongs to exactly one group of
// `size` ranks, and all groups run the same collective at the same time.
struct group {
    int size = 1, rank = 0;
    link_scope scope = link_scope::intra;
    int handle = -1;  // index of the communicator inside world (MPI builds only)
    std::string label() const;
};

class world {
public:
    // Initialises MPI only when a launcher's environment is present; `note` says what happened.
    world(int& argc, char**& argv, std::string& note);
    ~world();
    world(const world&) = delete;
    world& operator=(const world&) = delete;

    int rank = 0, size = 1, local_rank = 0, local_size = 1, nodes = 1, node_index = 0;
    bool mpi = false;
    bool threads = false;  // MPI_THREAD_MULTIPLE: the watchdog thread may talk to other ranks
    std::string mpi_version, host;

    // Time of one repeat across ranks, as nccl-tests' -a: 0 rank 0's, 1 the mean (its default),
    // 2 the minimum, 3 the maximum (NVIDIA/nccl-tests src/common.cu, Allreduce(args, &deltaSec, average)).
    double reduce_time(double seconds, int mode) const;
    // Element-wise maximum across ranks, in place.
    void max_ints(long long* v, int n) const;
    // Every rank's `line`, in rank order, on rank 0 (empty elsewhere).
    std::vector<std::string> gather(const std::string& line) const;
    void* control_comm() const { return ctl_; }  // MPI_Comm* reserved for stop/failure notices

    double max(double v) const;  // across all ranks
    std::int64_t sum(std::int64_t v) const;
    bool any(bool v) const;
    bool same_everywhere(std::uint64_t v) const;
    void barrier() const;
    void barrier(const group& g) const;
    [[noreturn]] void abort(int code) const;

    // Groups inside one node (sizes 2, 4, .. local_size) and across nodes (one rank per node,
    // then the whole world), for the collective sweep. Made once (collectively), then cached.
    std::vector<group> partitions();
    void* native_comm(const group& g) const;  // MPI_Comm* of a group (MPI builds only)

private:
    std::vector<void*> comms_;
    void* ctl_ = nullptr;
    std::vector<group> parts_;
    bool parts_made_ = false;
    group split(int color, int key, link_scope scope);
};

}  // namespace tslab::calibrate
