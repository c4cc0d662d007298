// Launcher detection and the rank -> host -> local rank -> device map (with provenance).
#include "launch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include <fmt/format.h>

extern char** environ;

namespace tslab::calibrate {

namespace {

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

long long env_int(const char* name) { return env(name) ? std::atoll(env(name)) : -1; }

bool has_pmi() {
    for (const char* v : {"PMI_SIZE", "PMI_RANK", "PMI_FD", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE"})
        if (env(v)) return true;
    return false;
}

long long slurm_tasks() { return env("SLURM_STEP_NUM_TASKS") ? env_int("SLURM_STEP_NUM_TASKS") : env_int("SLURM_NTASKS"); }

const char* const fix = "launch one rank per GPU with `srun --mpi=pmix` (see `srun --mpi=list`) or with mpirun";

std::string hex(std::uint64_t v) { return fmt::format("{:016x}", v); }

std::vector<std::string> split_tabs(const std::string& s) {
    std::vector<std::string> out(1);
    for (char c : s)
        if (c == '\t')
            out.emplace_back();
        else
            out.back().push_back(c);
    out.resize(std::max<std::size_t>(out.size(), 5));
    return out;
}

std::string common_prefix(const std::vector<std::string>& hosts) {
    if (hosts.empty()) return "";
    std::string p = hosts.front();
    for (const auto& h : hosts) p = p.substr(0, static_cast<std::size_t>(std::mismatch(p.begin(), p.end(), h.begin(), h.end()).first - p.begin()));
    while (!p.empty() && (p.back() == '-' || p.back() == '_' || p.back() == '.' || std::isdigit(static_cast<unsigned char>(p.back())))) p.pop_back();
    return p.empty() ? hosts.front() : p;
}

}  // namespace

std::string launch_problem_before_mpi() {
    const long long n = slurm_tasks();
    if (env("SLURM_PROCID") && n > 1 && !has_pmi())
        return fmt::format(
            "srun started {} tasks without a PMI (no PMI_SIZE, PMIX_RANK or OMPI_COMM_WORLD_SIZE): each would be "
            "its own one-rank MPI world and write --out alone; {}",
            n, fix);
    return "";
}

std::string launch_problem(const world& w) {
    const std::pair<const char*, long long> sources[] = {{"OMPI_COMM_WORLD_SIZE", env_int("OMPI_COMM_WORLD_SIZE")},
                                                         {"PMI_SIZE", env_int("PMI_SIZE")},
                                                         {env("SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS",
                                                          env("SLURM_PROCID") && !env("OMPI_COMM_WORLD_SIZE") ? slurm_tasks() : -1}};
    for (const auto& [name, n] : sources)
        if (n > 0 && n != w.size)
            return fmt::format("{}={} but MPI sees {} rank(s){}: the launcher and MPI disagree; {}", name, n, w.size,
                               w.mpi ? "" : " (MPI not started)", fix);
    return "";
}

std::string launcher_name() {
    if (env("SLURM_JOB_ID") && env("SLURM_PROCID") && !env("OMPI_COMM_WORLD_SIZE")) return fmt::format("srun (Slurm job {})", env("SLURM_JOB_ID"));
    if (env("OMPI_COMM_WORLD_SIZE"))
        return env("SLURM_JOB_ID") ? fmt::format("mpirun (Open MPI) in Slurm job {}", env("SLURM_JOB_ID")) : "mpirun (Open MPI)";
    if (env("PMI_SIZE") || env("PMIX_RANK")) return "PMI";
    return "none";
}

void describe_ranks(const world& w, const rank_device& d, const std::string& cluster_name, provenance_info& p) {
    const std::string line = fmt::format("#  Rank {:>2} Pid {:>6} on {:>10} local rank {:>2} device {:>2} [{}] {}", w.rank, ::getpid(), w.host,
                                         w.local_rank, d.index, d.bus_id.empty() ? "-" : d.bus_id, d.name);
    const std::string facts = fmt::format("{}\t{}\t{}\t{}\t{}", w.host, d.uuid, d.sm_clock_mhz, d.max_sm_clock_mhz, d.power_limit_w);
    const auto lines = w.gather(line), all = w.gather(facts);
    if (w.rank != 0) return;
    std::fputs("# Using devices\n", stdout);
    for (const auto& l : lines) std::fputs((l + "\n").c_str(), stdout);
    std::set<std::string> hosts;
    for (std::size_t r = 0; r < all.size(); ++r) {
        const auto f = split_tabs(all[r]);
        const std::string host = f[0], uuid = f[1];
        const double sm = std::atof(f[2].c_str()), mx = std::atof(f[3].c_str()), pw = std::atof(f[4].c_str());
        hosts.insert(host);
        if (!uuid.empty()) p.gpu_uuids.emplace_back(uuid);
        if (sm > 0 || pw > 0) p.clocks.push_back({static_cast<std::int64_t>(r), uuid, sm, mx, pw});
    }
    p.hosts.assign(hosts.begin(), hosts.end());
    std::uint64_t h = 1469598103934665603ULL;
    for (const auto& x : p.hosts) h = fnv1a(x + "\n", h);
    p.node_list_hash = hex(h);
    p.cluster_name = cluster_name.empty() ? common_prefix(p.hosts) : cluster_name;
    for (const char* v : {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "JOB_ID"})
        if (env(v)) p.job_id = env(v);
    p.launcher = launcher_name();
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "NCCL_", 5) == 0) {
            const char* eq = std::strchr(*e, '=');
            if (eq) p.nccl_env.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
        }
    std::sort(p.nccl_env.begin(), p.nccl_env.end());
}

}  // namespace tslab::calibrate
