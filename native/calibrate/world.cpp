// MPI bring-up (or its single-process stand-in), node layout and the groups the sweep uses.
#include "world.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#ifdef TSLAB_HAVE_MPI
#include <mpi.h>
#endif

namespace tslab::calibrate {

std::string group::label() const { return fmt::format("{} ranks, {}", size, to_string(scope)); }

namespace {
// Launchers set these; without them MPI_Init would try a singleton start, which is slow or
// fails in containers, and there is nobody to talk to anyway.
bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID", "MPI_LOCALNRANKS"})
        if (std::getenv(v)) return true;
    return false;
}
std::string this_host() {
    char h[256] = {};
    ::gethostname(h, sizeof h - 1);
    return h;
}
}  // namespace

#ifdef TSLAB_HAVE_MPI

namespace {
MPI_Comm& comm_at(const std::vector<void*>& v, int i) { return *static_cast<MPI_Comm*>(v[static_cast<std::size_t>(i)]); }
}  // namespace

world::world(int& argc, char**& argv, std::string& note) {
    host = this_host();
    if (!launched_by_mpi()) {
        note = "no MPI launcher found (mpirun/srun): running as one rank";
        return;
    }
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    mpi = true;
    threads = provided >= MPI_THREAD_MULTIPLE;
    ctl_ = new MPI_Comm;
    MPI_Comm_dup(MPI_COMM_WORLD, static_cast<MPI_Comm*>(ctl_));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    // Ranks sharing memory are one node (MPI-3 MPI_COMM_TYPE_SHARED); GPU = local rank.
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_size(local, &local_size);
    int leaders = local_rank == 0 ? 1 : 0;
    MPI_Allreduce(&leaders, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(&leaders, &node_index, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // undefined on rank 0
    if (rank == 0) node_index = 0;
    MPI_Bcast(&node_index, 1, MPI_INT, 0, local);  // the node's leader numbers the node
    MPI_Comm_free(&local);
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    mpi_version = std::string(version, static_cast<std::size_t>(len));
    mpi_version = mpi_version.substr(0, mpi_version.find_first_of(",\n"));
    note = fmt::format("MPI: {} ranks on {} node(s)", size, nodes);
}

world::~world() {
    if (!mpi) return;
    MPI_Comm_free(static_cast<MPI_Comm*>(ctl_));
    delete static_cast<MPI_Comm*>(ctl_);
    for (void* c : comms_) {
        MPI_Comm_free(static_cast<MPI_Comm*>(c));
        delete static_cast<MPI_Comm*>(c);
    }
    MPI_Finalize();
}

double world::max(double v) const {
    double out = v;
    if (mpi) MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

std::int64_t world::sum(std::int64_t v) const {
    long long in = v, out = v;
    if (mpi) MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return out;
}

bool world::any(bool v) const { return sum(v ? 1 : 0) > 0; }

double world::reduce_time(double t, int mode) const {
    if (!mpi) return t;
    double out = t;
    if (mode == 0)
        MPI_Bcast(&out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else
        MPI_Allreduce(&t, &out, 1, MPI_DOUBLE, mode == 2 ? MPI_MIN : mode == 3 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    return mode == 1 ? out / size : out;
}

void world::max_ints(long long* v, int n) const {
    if (mpi) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
}

std::vector<std::string> world::gather(const std::string& line) const {
    if (!mpi) return {line};
    constexpr int width = 512;
    std::string mine = line.substr(0, width - 1);
    mine.resize(width, '\0');
    std::vector<char> all(rank == 0 ? static_cast<std::size_t>(width) * static_cast<std::size_t>(size) : 1);
    MPI_Gather(mine.data(), width, MPI_CHAR, all.data(), width, MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    if (rank == 0)
        for (int r = 0; r < size; ++r) out.emplace_back(all.data() + static_cast<std::size_t>(r) * width);
    return out;
}

bool world::same_everywhere(std::uint64_t v) const {
    if (!mpi) return true;
    unsigned long long in = v, lo = 0, hi = 0;
    MPI_Allreduce(&in, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

void world::barrier() const {
    if (mpi) MPI_Barrier(MPI_COMM_WORLD);
}

void world::barrier(const group& g) const {
    if (mpi && g.handle >= 0) MPI_Barrier(comm_at(comms_, g.handle));
}

void world::abort(int code) const {
    if (mpi) MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

void* world::native_comm(const group& g) const { return g.handle >= 0 ? comms_[static_cast<std::size_t>(g.handle)] : nullptr; }

group world::split(int color, int key, link_scope scope) {
    auto* c = new MPI_Comm;
    MPI_Comm_split(MPI_COMM_WORLD, color, key, c);
    group g;
    g.scope = scope;
    MPI_Comm_rank(*c, &g.rank);
    MPI_Comm_size(*c, &g.size);
    comms_.push_back(c);
    g.handle = static_cast<int>(comms_.size()) - 1;
    return g;
}

std::vector<group> world::partitions() {
    if (parts_made_) return parts_;
    parts_made_ = true;
    std::vector<group>& out = parts_;
    if (!mpi || size < 2) return out;
    // Equal nodes only: then local_rank / g and the node index make equal groups everywhere.
    const bool uniform = size == nodes * local_size;
    for (int g = 2; uniform && g <= local_size; g *= 2)
        if (local_size % g == 0) out.push_back(split(node_index * (local_size / g) + local_rank / g, rank, link_scope::intra));
    if (uniform && local_size > 1 && (local_size & (local_size - 1)) != 0) out.push_back(split(node_index, rank, link_scope::intra));
    if (nodes > 1) {
        if (uniform && local_size > 1) out.push_back(split(local_rank, rank, link_scope::inter));
        out.push_back(split(0, rank, link_scope::inter));
    }
    return out;
}

#else  // no MPI at build time: one process

world::world(int&, char**&, std::string& note) {
    host = this_host();
    note = launched_by_mpi() ? "built without MPI but started by a launcher: every process runs as its own single rank"
                             : "built without MPI: running as one rank";
}
world::~world() = default;
double world::max(double v) const { return v; }
std::int64_t world::sum(std::int64_t v) const { return v; }
bool world::any(bool v) const { return v; }
double world::reduce_time(double t, int) const { return t; }
void world::max_ints(long long*, int) const {}
std::vector<std::string> world::gather(const std::string& line) const { return {line}; }
bool world::same_everywhere(std::uint64_t) const { return true; }
void world::barrier() const {}
void world::barrier(const group&) const {}
void world::abort(int code) const { std::_Exit(code); }
void* world::native_comm(const group&) const { return nullptr; }
group world::split(int, int, link_scope) { return {}; }
std::vector<group> world::partitions() { return {}; }

#endif

}  // namespace tslab::calibrate
