// tslab-calibrate: measures collectives, GEMMs and memory copies on this machine and writes a
// tslab/calibration@1 profile (or, with `import`, builds one from nccl-tests logs).
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "cli_parse.hpp"
#include "control.hpp"
#include "import.hpp"
#include "launch.hpp"
#include "setup.hpp"
#include "tslab/errors.hpp"
#include "version.hpp"

using namespace tslab;
using namespace tslab::calibrate;

namespace {

void on_signal(int sig) { stopper().request(sig); }  // async-signal-safe: atomic stores

void say(const world& w, const std::string& line) {
    if (w.rank == 0) std::fputs(("# " + line + "\n").c_str(), stdout), std::fflush(stdout);
}

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "cpu";
}

calibration_profile identity(const world& w, const options& o, const device_identity& d) {
    calibration_profile p;
    p.created = utc_now();
    p.host = w.host;
    p.backend = o.backend;
    p.ranks = w.size, p.nodes = w.nodes;
    if (o.backend == "cuda")
        p.devices.push_back({d.name, d.memory_bytes, w.size});
    else
        p.devices.push_back({cpu_model(), static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE), w.size});
    p.software = d.software;
    p.software.emplace_back("mpi", w.mpi ? w.mpi_version : "none");
    p.software.emplace_back("compiler", __VERSION__);
    p.software.emplace_back("tslab", native::project_version());
    rank_device mine{d.index, d.bus_id, o.backend == "cuda" ? d.name : cpu_model(), d.uuid, d.sm_clock_mhz, d.max_sm_clock_mhz, d.power_limit_w};
    describe_ranks(w, mine, o.cluster_name, p.provenance);
    return p;
}

std::unique_ptr<collective_runner> make_runner(world& w, const options& o) {
    if (o.ops.empty() || w.size < 2) return nullptr;
#ifdef TSLAB_HAVE_CUDA
    if (o.backend == "cuda") return make_nccl_runner(w, o.alltoall_sendrecv, o.local_register, o.op_timeout_s);
#endif
    return o.backend == "cpu" ? make_mpi_runner(w, o.alltoall_sendrecv) : nullptr;
}

void run_probes(world& w, const run_plan& plan, recorder& rec) {
    const options& o = plan.o;
    auto runner = make_runner(w, o);
    if (o.memory) {
#ifdef TSLAB_HAVE_CUDA
        if (o.backend == "cuda") probe_cuda_memory(w, o, rec);
#endif
        if (o.backend == "cpu") probe_host_memcpy(w, o, rec);
    }
#ifdef TSLAB_HAVE_CUDA
    if (o.gemm && o.backend == "cuda") probe_cuda_gemm(w, o, plan.device, plan.wl.gemms, rec);
#endif
    if (o.ops.empty() || stopper().local()) return;
    if (!runner)
        return say(w,
                   w.size > 1 ? "collectives skipped: this build has no " + o.backend + " collective backend"
                              : "collectives skipped: one rank has nobody to talk to");
    const auto points = static_cast<std::int64_t>(w.partitions().size() * o.ops.size() * plan.sizes.size());
    progress bar(w.rank == 0, points);
    sweep_collectives(w, *runner, o, plan.sizes, rec, bar);
    bar.finish();
}

int measure_and_write(world& w, const run_plan& plan) {
    const options& o = plan.o;
    recorder rec;
    rec.set_identity(identity(w, o, plan.device));
#ifdef TSLAB_HAVE_CUDA
    if (o.backend == "cuda") say(w, nccl_versions());
#endif
    say(w,
        fmt::format("backend {}, ranks {}, nodes {}, sizes {}..{} ×{}, iters {} warm-up {} repeats {}, -a {}{}", o.backend, w.size, w.nodes,
                    format_size(o.min_bytes), format_size(o.max_bytes), o.step_factor, o.iters, o.warmup, o.repeats, o.average,
                    o.timeout_s > 0 ? fmt::format(", timeout {} s", o.timeout_s) : ""));
    stopper().arm(o.timeout_s);
    bool complete = true;
    {
        run_control ctl(w, rec, o);  // its watchdog is joined on leaving this block
        try {
            run_probes(w, plan, rec);
        } catch (const input_error& e) {
            ctl.fail(native::exit_input, e.what());
        } catch (const std::exception& e) {
            ctl.fail(native::exit_internal, e.what());
        }
        complete = !stopper().agreed(w);
    }
    if (w.rank == 0) {
        const std::string err = rec.write(o.out, complete, stopper().reason());
        if (!err.empty()) return std::fprintf(stderr, "error: --out: %s\n", err.c_str()), native::exit_input;
        const std::string why = stopper().stopped_by_signal() ? "a signal (" + stopper().reason() + ")" : stopper().reason();
        say(w, fmt::format("profile written to {} (complete: {}{})", o.out, complete, complete ? "" : ", stopped by " + why));
    }
    return complete ? native::exit_ok : native::exit_stopped;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "import") == 0) return import_main(argc - 1, argv + 1);  // no MPI
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGXFSZ, SIG_IGN);  // past a file-size limit, write() fails with EFBIG and we report it
    if (const std::string m = launch_problem_before_mpi(); !m.empty()) {
        std::fprintf(stderr, "tslab-calibrate: error: %s\n", m.c_str());
        return native::exit_input;
    }
    std::string note;
    world w(argc, argv, note);
    say(w, "tslab-calibrate: " + note);
    const std::string launch = launch_problem(w);
    if (w.any(!launch.empty())) {
        if (!launch.empty()) std::fprintf(stderr, "%s: error: %s\n", rank_prefix(w).c_str(), launch.c_str());
        return native::exit_input;
    }
    run_plan plan;
    const int code = prepare_run(w, argc, argv, plan);
    if (code) return code < 0 ? native::exit_ok : code;
    return measure_and_write(w, plan);
}
