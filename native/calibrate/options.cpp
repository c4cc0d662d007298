// tslab-calibrate's flags (CLI11); --quick fills in a short sweep for anything not given explicitly.
#include "options.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "cli_parse.hpp"
#include "version.hpp"

#include "tslab/errors.hpp"

namespace tslab::calibrate {

namespace {

std::int64_t parse_int(const std::string& flag, const std::string& v, std::int64_t lo, std::int64_t hi) {
    std::string text = v;
    const std::string err = native::whole_number(lo, hi)(text);
    if (!err.empty()) throw input_error(flag, msg("cli.invalid_value", {{"detail", err}}));
    return std::stoll(v);
}

std::vector<std::string> op_names() {
    std::vector<std::string> names;
    for (const auto& d : collective_table()) names.emplace_back(d.name);
    names.emplace_back("gemm");
    names.emplace_back("memory");
    return names;
}

void parse_ops(options& o, const std::string& list) {
    o.ops.clear();
    o.gemm = o.memory = false;
    const auto names = op_names();
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string name = list.substr(start, comma - start);
        start = comma + 1;
        if (name.empty()) continue;
        if (name == "gemm")
            o.gemm = true;
        else if (name == "memory")
            o.memory = true;
        else if (auto op = collective_from_name(name))
            o.ops.push_back(*op);
        else {
            const std::string near = closest_name(name, names);
            const std::string list = fmt::format("{}", fmt::join(names, ","));
            throw input_error("--ops",
                              near.empty() ? msg("calibrate.unknown_op_list", {{"name", name}, {"names", list}})
                                           : msg("calibrate.unknown_op_list_near", {{"name", name}, {"names", list}, {"near", near}}));
        }
    }
}

}  // namespace

std::int64_t parse_size(const std::string& flag, const std::string& text) {
    const char last = text.empty() ? '0' : static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    const int shift = last == 'K' ? 10 : last == 'M' ? 20 : last == 'G' ? 30 : last == 'T' ? 40 : 0;
    const std::string digits = shift ? text.substr(0, text.size() - 1) : text;
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        throw input_error(flag, msg("calibrate.size_syntax", {{"text", text}}));
    const std::int64_t unit = std::int64_t{1} << shift;
    return parse_int(flag, digits, 1, (1LL << 50) / unit) * unit;
}

std::string format_size(std::int64_t b) {
    if (b >= (1LL << 40) && b % (1LL << 40) == 0) return fmt::format("{}T", b >> 40);
    if (b >= (1LL << 30) && b % (1LL << 30) == 0) return fmt::format("{}G", b >> 30);
    if (b >= (1LL << 20) && b % (1LL << 20) == 0) return fmt::format("{}M", b >> 20);
    if (b >= (1LL << 10) && b % (1LL << 10) == 0) return fmt::format("{}K", b >> 10);
    return fmt::format("{}", b);
}

namespace {

// The flags as given; fill_in() turns them into options, --quick supplying what was not given.
struct flag_values {
    std::string min_bytes = "8", max_bytes, ops, datatype = "float";
    std::int64_t step_factor = 2, timeout_s = 0, op_timeout_s = 300;
    int iters = 20, warmup = 5, repeats = 5, ngpus = 1;
};

CLI::Validator size_value() {
    auto check = [](std::string& v) -> std::string {
        try {
            parse_size("", v);
            return {};
        } catch (const input_error& e) {
            return e.reason();
        }
    };
    return CLI::Validator(check, "");
}

const char* const footer =
    "Launch with mpirun or srun, one rank per GPU; without a launcher it runs as one rank.\n\n"
    "Exit status: 0 complete; 3 stopped early by SIGINT/SIGTERM or --timeout (the profile is written\n"
    "with \"complete\": false); 2 bad input (a flag or value, sizes beyond memory, ranks given different\n"
    "flags); 70 internal error (a bug, or a CUDA, NCCL or MPI failure).";

// The nccl-tests flags whose meaning is the same here (src/common.cu getopt string).
void define_nccl_tests_flags(CLI::App& app, options& o, flag_values& v) {
    app.add_option("-g,--ngpus", v.ngpus, "GPUs per rank: 1 (launch one rank per GPU)")->check(native::whole_number(1, 1))->type_name("1");
    app.add_option("-a,--average", o.average, "time across ranks: 0 rank 0, 1 mean (default, as nccl-tests), 2 min, 3 max")
        ->check(native::whole_number(0, 3))
        ->type_name("0-3");
    app.add_option("-c,--check", o.check_iters, "check iterations before timing (default 1; 0: no check, #wrong N/A)")
        ->check(native::whole_number(0, 100))
        ->type_name("N");
    app.add_option("-d,--datatype", v.datatype, "element type: float")->check(native::one_of({"float"}))->type_name("float");
    app.add_option("-o,--op", o.redop, "reduction: sum (default), min, max")->check(native::one_of({"sum", "min", "max"}))->type_name("OP");
    app.add_option("-r,--root", o.root, "root rank of broadcast and reduce (default 0)")->check(native::whole_number(0, 1 << 20))->type_name("ROOT");
    app.add_option("-R,--local_register", o.local_register, "cuda: register buffers with NCCL (0 no, 1 local, 2 symmetric)")
        ->check(native::whole_number(0, 2))
        ->type_name("0-2");
    app.add_option("-T,--op-timeout", v.op_timeout_s, "a point not finished after S seconds fails every rank (default 300; 0 none)")
        ->check(native::whole_number(0, 7 * 86400))
        ->type_name("S");
    app.add_flag("--alltoall-sendrecv", o.alltoall_sendrecv, "all-to-all as grouped send/recv")->group("");  // tests the fallback
    app.add_option("--cluster-name", o.cluster_name, "recorded in the profile (default: the hosts' common name prefix)")->type_name("NAME");
}

void define_flags(CLI::App& app, options& o, flag_values& v) {
    app.name("tslab-calibrate");
    app.description(
        "tslab-calibrate: measures collectives, GEMMs and memory copies on this machine and writes a\n"
        "tslab/calibration@1 profile. Flags as nccl-tests where the meaning is the same (-b -e -f -g -n -w -c -d -o\n"
        "-r -a -R -T); repeats are -k. `tslab-calibrate import LOG... --out P` reads nccl-tests logs instead.");
    app.footer(footer);
    app.set_version_flag("--version", native::version_line("tslab-calibrate"), "print the version and git revision, then exit");
    app.add_option("--backend", o.backend, "cuda where a GPU is found, else cpu")->check(native::one_of({"cuda", "cpu"}))->type_name("cuda|cpu");
    app.add_option("-b,--minbytes", v.min_bytes, "smallest message: 8, 64K, 32M, 1G (default 8)")->check(size_value())->type_name("SIZE");
    app.add_option("-e,--maxbytes", v.max_bytes, "largest message (default 32M, --quick 1M)")->check(size_value())->type_name("SIZE");
    app.add_option("-f,--stepfactor", v.step_factor, "size multiplier between steps (default 2, --quick 4)")
        ->check(native::whole_number(2, 1024))
        ->type_name("FACTOR");
    app.add_option("-n,--iters", v.iters, "timed iterations per repeat (default 20, --quick 5)")
        ->check(native::whole_number(1, 1'000'000))
        ->type_name("ITERS");
    app.add_option("-w,--warmup_iters", v.warmup, "warm-up iterations (default 5, --quick 2)")
        ->check(native::whole_number(0, 1'000'000))
        ->type_name("WARMUP");
    app.add_option("-k,--repeats", v.repeats, "repeats of -n iterations, the median kept (default 5, --quick 3; nccl-tests has none)")
        ->check(native::whole_number(1, 1000))
        ->type_name("REPEATS");
    define_nccl_tests_flags(app, o, v);
    app.add_option("--ops", v.ops, "comma list of " + fmt::format("{}", fmt::join(op_names(), ",")) + " (default: all but reduce, and gemm on cuda)")
        ->type_name("LIST");
    app.add_flag("--quick", o.quick, "a short sweep for whatever is not given (8 .. 1M, ×4, 5/2/3 iterations)");
    app.add_option("--scenario", o.scenario, "also measure a tslab/scenario@1's per-rank GEMM shapes and message sizes")->type_name("FILE");
    app.add_option("--timeout", v.timeout_s, "stop after S seconds and keep what was measured (\"complete\": false)")
        ->check(native::whole_number(0, 7 * 86400))
        ->type_name("S");
    app.add_option("--out", o.out, "profile path, written atomically (default tslab-calibration.json)")->type_name("FILE");
}

void fill_in(options& o, const flag_values& v, const CLI::App& app) {
    const auto given = [&](const char* flag) { return app.count(flag) > 0; };
    o.ops_given = given("--ops");
    if (o.ops_given)
        parse_ops(o, v.ops);
    else
        o.ops = {collective_op::allreduce, collective_op::reducescatter, collective_op::allgather,
                 collective_op::alltoall,  collective_op::broadcast,     collective_op::sendrecv};
    if (o.ops.empty() && !o.gemm && !o.memory) throw input_error("--ops", msg("calibrate.nothing_selected"));
    o.min_bytes = parse_size("-b", v.min_bytes);
    o.max_bytes = given("-e") ? parse_size("-e", v.max_bytes) : o.quick ? 1 << 20 : 32 << 20;
    o.step_factor = given("-f") ? v.step_factor : o.quick ? 4 : 2;
    o.iters = given("-n") ? v.iters : o.quick ? 5 : 20;
    o.warmup = given("-w") ? v.warmup : o.quick ? 2 : 5;
    o.repeats = given("-k") ? v.repeats : o.quick ? 3 : 5;
    o.op_timeout_s = static_cast<double>(v.op_timeout_s);
    o.timeout_s = static_cast<double>(v.timeout_s);
    if (o.max_bytes < o.min_bytes)
        throw input_error("-e", msg("calibrate.max_below_min", {{"max", format_size(o.max_bytes)}, {"min", format_size(o.min_bytes)}}));
}

}  // namespace

options parse_options(int argc, char** argv) {
    options o;
    flag_values v;
    CLI::App app;
    define_flags(app, o, v);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForVersion&) {
        o.version = true;
        return o;
    } catch (const CLI::Success&) {  // --help
        o.help = true;
        return o;
    } catch (const CLI::ParseError& e) {
        throw native::parse_error(app, e);
    }
    fill_in(o, v, app);
    return o;
}

std::vector<std::int64_t> sweep_sizes(const options& o, const std::vector<std::int64_t>& extra) {
    std::vector<std::int64_t> sizes;
    for (std::int64_t s = o.min_bytes; s <= o.max_bytes; s *= o.step_factor) sizes.push_back(s);
    for (std::int64_t s : extra)
        if (s > 0 && s <= o.max_bytes) sizes.push_back(s);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

std::uint64_t args_hash(int argc, char** argv) {
    std::uint64_t h = 1469598103934665603ULL;
    for (int i = 1; i < argc; ++i)
        for (const char* c = argv[i];; ++c) {
            h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ULL;  // the terminating 0 separates args
            if (*c == 0) break;
        }
    return h;
}

std::string usage() {
    options o;
    flag_values v;
    CLI::App app;
    define_flags(app, o, v);
    return app.help();
}

}  // namespace tslab::calibrate
