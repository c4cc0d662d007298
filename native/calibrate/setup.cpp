// The setup phase: parse, resolve the backend, read the scenario, size the sweep, agree, check --out.
#include "setup.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "cli_parse.hpp"
#include "control.hpp"
#include "faults.hpp"
#include "tslab/errors.hpp"
#include "version.hpp"

namespace tslab::calibrate {

namespace {

[[maybe_unused]] void say(const world& w, const std::string& line) {
    if (w.rank == 0) std::fputs(("# " + line + "\n").c_str(), stdout), std::fflush(stdout);
}

void resolve_backend(options& o, device_identity& d, const world& w) {
#ifdef TSLAB_HAVE_CUDA
    if (o.backend != "cpu") {
        d = cuda_select_device(w.local_rank);
        if (!d.ok && o.backend == "cuda") throw input_error("--backend", msg("calibrate.cuda_unusable", {{"reason", d.error}}));
        if (o.backend.empty() && !d.ok) say(w, "no usable GPU (" + d.error + "): using --backend cpu");
        if (o.backend.empty()) o.backend = d.ok ? "cuda" : "cpu";
    }
#else
    (void)w, (void)d;
    if (o.backend == "cuda") throw input_error("--backend", msg("calibrate.built_without_cuda"));
    o.backend = "cpu";
#endif
    if (o.backend == "cpu" && !o.ops_given) o.gemm = false;  // the default set: no GEMM on the host
    if (o.backend == "cpu" && o.gemm) throw input_error("--ops", msg("calibrate.gemm_needs_cuda"));
}

// Everything the ranks must agree on that is derived from the flags and files.
std::uint64_t derived_hash(const run_plan& p) {
    const options& o = p.o;
    std::string s = fmt::format("{} {} {} {} {} {} {} {} {} {}|", o.backend, o.iters, o.warmup, o.repeats, o.average, o.check_iters, o.root, o.redop,
                                o.gemm, o.memory);
    for (auto op : o.ops) s += describe(op).name, s += ',';
    for (auto b : p.sizes) s += fmt::format("{},", b);
    for (const auto& g : p.wl.gemms) s += fmt::format("{}x{}x{},", g.m, g.n, g.k);
    return fnv1a(s);
}

void setup_one_rank(world& w, int argc, char** argv, run_plan& p) {
    p.o = parse_options(argc, argv);
    if (p.o.help || p.o.version) return;
    check_fault_variable();
    resolve_backend(p.o, p.device, w);
    if (!p.o.scenario.empty()) p.wl = scenario_workload(p.o.scenario);
    p.sizes = sweep_sizes(p.o, p.wl.message_bytes);
    if (p.o.backend == "cpu" && !p.o.ops.empty() && w.size > 1)
        check_fits(2 * p.sizes.back() * rotations_for(p.sizes.back()), w.local_size, available_host_bytes(), "the collective sweep");
}

// Each rank's own error, then the worst code everywhere (0 when all succeeded).
int agree_on_errors(const world& w, int code, const std::string& error) {
    if (code) std::fputs(fmt::format("{}: {}: {}\n", rank_prefix(w), code == native::exit_input ? "error" : "internal error", error).c_str(), stderr);
    long long worst = code;
    w.max_ints(&worst, 1);
    if (worst && !code && w.rank == 0)
        std::fputs(fmt::format("{}: stopping: another rank failed (its message is above)\n", rank_prefix(w)).c_str(), stderr);
    return static_cast<int>(worst);
}

int agree_on_plan(const world& w, const run_plan& p) {
    const std::uint64_t scen = p.wl.content_hash, derived = derived_hash(p);
    const bool scen_same = w.same_everywhere(scen), derived_same = w.same_everywhere(derived);
    if (scen_same && derived_same) return 0;
    std::fputs(fmt::format("{}: scenario {} content hash {:016x}, derived sizes and shapes hash {:016x}\n", rank_prefix(w),
                           p.o.scenario.empty() ? "(none)" : p.o.scenario, scen, derived)
                   .c_str(),
               stderr);
    if (w.rank == 0)
        std::fputs(fmt::format("error: ranks disagree on {}; every rank must measure the same thing (is --scenario on a shared "
                               "file system?)\n",
                               !scen_same ? "the scenario file's content"
                                          : "the sizes and shapes derived from "
                                            "their flags and files")
                       .c_str(),
                   stderr);
    return native::exit_input;
}

}  // namespace

int prepare_run(world& w, int argc, char** argv, run_plan& p) {
    if (!w.same_everywhere(args_hash(argc, argv))) {
        if (w.rank == 0) std::fprintf(stderr, "error: ranks disagree on their arguments; every rank must get the same flags\n");
        return native::exit_input;
    }
    int code = 0;
    std::string error;
    try {
        setup_one_rank(w, argc, argv, p);
    } catch (const input_error& e) {
        code = native::exit_input, error = e.what();
    } catch (const std::exception& e) {
        code = native::exit_internal, error = e.what();
    }
    if (int worst = agree_on_errors(w, code, error)) return worst;
    if (p.o.help || p.o.version) {
        if (w.rank == 0) std::fputs(p.o.help ? usage().c_str() : (native::version_line("tslab-calibrate") + "\n").c_str(), stdout);
        return -1;
    }
    if (int c = agree_on_plan(w, p)) return c;
    const std::string out_err = w.rank == 0 ? check_writable(p.o.out) : "";
    if (w.any(!out_err.empty())) {
        if (w.rank == 0) std::fprintf(stderr, "error: --out: %s (checked before measuring)\n", out_err.c_str());
        return native::exit_input;
    }
    return 0;
}

}  // namespace tslab::calibrate
