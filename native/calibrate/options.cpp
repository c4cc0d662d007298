// Parsing tslab-calibrate's flags; --quick fills in a short sweep for anything not given explicitly.
#include "options.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab::calibrate {

namespace {

std::int64_t parse_int(const std::string& flag, const std::string& v, std::int64_t lo, std::int64_t hi) {
    std::size_t used = 0;
    long long x = 0;
    try {
        x = std::stoll(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != v.size()) throw input_error(flag, fmt::format("expected an integer, got \"{}\"", v));
    if (x < lo || x > hi) throw input_error(flag, fmt::format("{} is out of range [{}, {}]", x, lo, hi));
    return x;
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
        if (name == "gemm") o.gemm = true;
        else if (name == "memory") o.memory = true;
        else if (auto op = collective_from_name(name)) o.ops.push_back(*op);
        else {
            const std::string near = closest_name(name, names);
            throw input_error("--ops", fmt::format("unknown op \"{}\"; expected a comma-separated list of {}{}", name,
                                                   fmt::join(names, ","), near.empty() ? "" : " (did you mean " + near + "?)"));
        }
    }
}

}  // namespace

std::int64_t parse_size(const std::string& flag, const std::string& text) {
    if (text.empty()) throw input_error(flag, "expected a size such as 8, 64K, 32M or 1G");
    std::int64_t unit = 1;
    std::string digits = text;
    const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    if (last == 'K' || last == 'M' || last == 'G' || last == 'T') {
        unit = last == 'K' ? 1LL << 10 : last == 'M' ? 1LL << 20 : last == 'G' ? 1LL << 30 : 1LL << 40;
        digits.pop_back();
    }
    return parse_int(flag, digits, 1, (1LL << 50) / unit) * unit;
}

std::string format_size(std::int64_t b) {
    if (b >= (1LL << 40) && b % (1LL << 40) == 0) return fmt::format("{}T", b >> 40);
    if (b >= (1LL << 30) && b % (1LL << 30) == 0) return fmt::format("{}G", b >> 30);
    if (b >= (1LL << 20) && b % (1LL << 20) == 0) return fmt::format("{}M", b >> 20);
    if (b >= (1LL << 10) && b % (1LL << 10) == 0) return fmt::format("{}K", b >> 10);
    return fmt::format("{}", b);
}

options parse_options(int argc, char** argv) {
    options o;
    std::optional<std::int64_t> b, e, f;
    std::optional<int> n, w, r;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw input_error(flag, "needs a value");
            return argv[++i];
        };
        if (flag == "-h" || flag == "--help") o.help = true;
        else if (flag == "-b" || flag == "--minbytes") b = parse_size(flag, value());
        else if (flag == "-e" || flag == "--maxbytes") e = parse_size(flag, value());
        else if (flag == "-f" || flag == "--stepfactor") f = parse_int(flag, value(), 2, 1024);
        else if (flag == "-n" || flag == "--iters") n = static_cast<int>(parse_int(flag, value(), 1, 1'000'000));
        else if (flag == "-w" || flag == "--warmup_iters") w = static_cast<int>(parse_int(flag, value(), 0, 1'000'000));
        else if (flag == "-r" || flag == "--repeats") r = static_cast<int>(parse_int(flag, value(), 1, 1000));
        else if (flag == "--ops") parse_ops(o, value());
        else if (flag == "--quick") o.quick = true;
        else if (flag == "--out") o.out = value();
        else if (flag == "--scenario") o.scenario = value();
        else if (flag == "--timeout") o.timeout_s = static_cast<double>(parse_int(flag, value(), 0, 7 * 86400));
        else if (flag == "--backend") {
            o.backend = value();
            if (o.backend != "cuda" && o.backend != "cpu")
                throw input_error(flag, fmt::format("expected cuda or cpu, got \"{}\"", o.backend));
        } else throw input_error(flag, "unknown flag; see --help");
    }
    if (o.ops.empty() && !o.gemm && !o.memory) throw input_error("--ops", "selects nothing to measure");
    for (int i = 1; i < argc; ++i) o.ops_given = o.ops_given || std::string(argv[i]) == "--ops";
    if (!o.ops_given) o.ops = {collective_op::allreduce, collective_op::reducescatter, collective_op::allgather,
                             collective_op::alltoall, collective_op::broadcast, collective_op::sendrecv};
    o.min_bytes = b.value_or(8);
    o.max_bytes = e.value_or(o.quick ? 1 << 20 : 32 << 20);
    o.step_factor = f.value_or(o.quick ? 4 : 2);
    o.iters = n.value_or(o.quick ? 5 : 20);
    o.warmup = w.value_or(o.quick ? 2 : 5);
    o.repeats = r.value_or(o.quick ? 3 : 5);
    if (o.max_bytes < o.min_bytes)
        throw input_error("-e", fmt::format("{} is below -b {}", format_size(o.max_bytes), format_size(o.min_bytes)));
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
    return "usage: tslab-calibrate [--backend cuda|cpu] [-b SIZE] [-e SIZE] [-f FACTOR] [-n ITERS] [-w WARMUP]\n"
           "                       [-r REPEATS] [--ops LIST] [--quick] [--out FILE] [--scenario FILE] [--timeout S]\n\n"
           "  -b, -e       smallest and largest message (8, 64K, 32M, 1G; default 8 .. 32M, --quick 8 .. 1M)\n"
           "  -f           size multiplier between steps (default 2, --quick 4)\n"
           "  -n, -w, -r   timed iterations per repeat, warm-up iterations, repeats (20/5/5, --quick 5/2/3)\n"
           "  --ops        comma list of allreduce,reducescatter,allgather,alltoall,broadcast,reduce,sendrecv,gemm,memory\n"
           "  --scenario   also measure a tslab/scenario@1's per-rank GEMM shapes and message sizes\n"
           "  --timeout    stop after S seconds and keep what was measured (\"complete\": false)\n"
           "  --out        profile path (default tslab-calibration.json), written atomically\n\n"
           "Launch with mpirun or srun, one rank per GPU; without a launcher it runs as one rank.\n";
}

}  // namespace tslab::calibrate
