// tslab-calibrate: measures collectives, GEMMs and memory copies on this machine and writes a
// tslab/calibration@1 profile. One harness; each probe lives in its own file.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "cli_parse.hpp"
#include "probes.hpp"
#include "tslab/errors.hpp"
#include "version.hpp"

using namespace tslab;
using namespace tslab::calibrate;

namespace {

void on_signal(int sig) { stopper().request(sig); }  // async-signal-safe: two atomic stores

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
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    p.host = host;
    p.backend = o.backend;
    p.ranks = w.size, p.nodes = w.nodes;
    if (o.backend == "cuda") p.devices.push_back({d.name, d.memory_bytes, w.size});
    else p.devices.push_back({cpu_model(), static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE), w.size});
    p.software = d.software;
    p.software.emplace_back("mpi", w.mpi ? w.mpi_version : "none");
    p.software.emplace_back("compiler", __VERSION__);
    p.software.emplace_back("tslab", native::project_version());
    return p;
}

// Stops a hung collective: once a stop was requested (signal or deadline) and the main thread
// has not finished within `grace_s`, rank 0 writes the partial profile and every rank exits.
void watchdog(const world& w, recorder& rec, const options& o, const std::atomic<bool>& done, double grace_s) {
    double waited = 0;
    while (!done.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        waited = stopper().local() ? waited + 0.1 : 0;
        if (waited < grace_s) continue;
        if (w.rank == 0) {
            std::string err;
            rec.write(o.out, false, err);
            std::fprintf(stderr, "tslab-calibrate: a collective did not return %.0f s after the stop; partial profile %s%s\n",
                         grace_s, err.empty() ? "written to " : "not written: ", err.empty() ? o.out.c_str() : err.c_str());
        } else {
            std::this_thread::sleep_for(std::chrono::seconds(2));  // let rank 0 finish writing
        }
        std::_Exit(native::exit_stopped);
    }
}

void resolve_backend(options& o, device_identity& d, const world& w) {
#ifdef TSLAB_HAVE_CUDA
    if (o.backend != "cpu") {
        d = cuda_select_device(w.local_rank);
        if (!d.ok && o.backend == "cuda") throw input_error("--backend", "cuda: " + d.error);
        if (o.backend.empty() && !d.ok) say(w, "no usable GPU (" + d.error + "): using --backend cpu");
        if (o.backend.empty()) o.backend = d.ok ? "cuda" : "cpu";
    }
#else
    (void)w, (void)d;
    if (o.backend == "cuda") throw input_error("--backend", "cuda: this binary was built without the CUDA toolkit");
    o.backend = "cpu";
#endif
    if (o.backend == "cpu" && !o.ops_given) o.gemm = false;  // the default set: no GEMM on the host
    if (o.backend == "cpu" && o.gemm) throw input_error("--ops", "gemm needs --backend cuda");
}

void run_probes(world& w, const options& o, const device_identity& d, const workload& wl, recorder& rec) {
    const auto sizes = sweep_sizes(o, wl.message_bytes);
    std::unique_ptr<collective_runner> runner;
    if (!o.ops.empty() && w.size > 1) runner = o.backend == "cuda" ? make_nccl_runner(w) : make_mpi_runner(w);
    if (runner && o.backend == "cpu") check_fits(runner->footprint(sizes.back()), w.local_size, available_host_bytes(), "the collective sweep");
    if (o.memory) {
        if (o.backend == "cuda") probe_cuda_memory(w, o, rec);
        else probe_host_memcpy(w, o, rec);
    }
    if (o.gemm && o.backend == "cuda") probe_cuda_gemm(w, o, d, wl.gemms, rec);
    if (o.ops.empty()) return;
    if (!runner) return say(w, w.size > 1 ? "collectives skipped: this build has no " + o.backend + " collective backend"
                                          : "collectives skipped: one rank has nobody to talk to");
    const std::int64_t points = static_cast<std::int64_t>(w.partitions().size() * o.ops.size() * sizes.size());
    progress bar(w.rank == 0, points);
    sweep_collectives(w, *runner, o, sizes, rec, bar);
    bar.finish();
}

int run(world& w, options& o) {
    device_identity d;
    resolve_backend(o, d, w);
    const workload wl = o.scenario.empty() ? workload{} : scenario_workload(o.scenario);
    recorder rec;
    rec.set_identity(identity(w, o, d));
    say(w, fmt::format("backend {}, ranks {}, nodes {}, sizes {}..{} ×{}, iters {} warm-up {} repeats {}{}", o.backend,
                       w.size, w.nodes, format_size(o.min_bytes), format_size(o.max_bytes), o.step_factor, o.iters,
                       o.warmup, o.repeats, o.timeout_s > 0 ? fmt::format(", timeout {} s", o.timeout_s) : ""));
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    stopper().arm(o.timeout_s);
    {
        // Joined on every exit from this block, an exception included.
        std::atomic<bool> done{false};
        std::thread dog(watchdog, std::cref(w), std::ref(rec), std::cref(o), std::cref(done), 10.0);
        struct joiner {
            std::atomic<bool>& done;
            std::thread& t;
            ~joiner() { done = true, t.join(); }
        } join_on_exit{done, dog};
        run_probes(w, o, d, wl, rec);
    }
    const bool complete = !stopper().agreed(w);
    const int status = complete ? native::exit_ok : native::exit_stopped;
    if (w.rank != 0) return status;
    std::string err;
    if (!rec.write(o.out, complete, err)) throw input_error("--out", err);
    const char* why = stopper().signal_number() ? "stopped by a signal" : "stopped by --timeout";
    say(w, fmt::format("profile written to {} (complete: {}{})", o.out, complete, complete ? "" : fmt::format(", {}", why)));
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    std::string note;
    world w(argc, argv, note);
    say(w, "tslab-calibrate: " + note);
    if (!w.same_everywhere(args_hash(argc, argv))) {
        if (w.rank == 0) std::fprintf(stderr, "error: ranks disagree on their arguments; every rank must get the same flags\n");
        w.abort(native::exit_input);
    }
    int code = native::exit_ok;
    std::string error;
    try {
        options o = parse_options(argc, argv);
        if (o.help || o.version) {
            if (w.rank == 0) std::fputs(o.help ? usage().c_str() : (native::version_line("tslab-calibrate") + "\n").c_str(), stdout);
        } else {
            code = run(w, o);
        }
    } catch (const input_error& e) {
        error = e.what();
        code = native::exit_input;
    } catch (const std::exception& e) {
        error = e.what();
        code = native::exit_internal;
    }
    // Errors come from the flags or the machine, so every rank meets them at the same point.
    for (const auto& [status, label] : {std::pair{native::exit_input, "error"}, std::pair{native::exit_internal, "internal error"}})
        if (w.any(code == status)) {
            if (w.rank == 0) std::fprintf(stderr, "%s: %s\n", label, code != status ? "another rank failed" : error.c_str());
            return status;
        }
    return code;
}
