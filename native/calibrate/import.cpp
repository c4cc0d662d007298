// `tslab-calibrate import`: nccl-tests logs in, a fitted tslab/calibration@1 profile out (no MPI).
#include "import.hpp"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "atomic_file.hpp"
#include "cli_parse.hpp"
#include "harness.hpp"
#include "tslab/errors.hpp"
#include "version.hpp"

namespace tslab::calibrate {

namespace {

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw input_error(path, msg("cli.cannot_open"));
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<nccl_tests_table> parse_any(const std::string& path) { return parse_nccl_tests(read_file(path), path); }

// One table into the recorder, through the same add_collective as a live sweep.
void add_table(const nccl_tests_table& t, const import_options& o, recorder& rec, calibration_profile& id) {
    const table_shape shape = resolve_table(t, o);
    const std::string& name = shape.name;
    const std::int64_t n = shape.ranks, nodes = shape.nodes;
    group g;
    g.size = static_cast<int>(n), g.scope = nodes > 1 ? link_scope::inter : link_scope::intra;
    std::size_t used = 0;
    for (const auto& r : t.rows) {
        if (r.wrong || r.bytes <= 0 || r.time_us <= 0) continue;  // as a live run: failed checks are not recorded
        const double time_s = r.time_us * 1e-6, algbw = static_cast<double>(r.bytes) / time_s;
        rec.add_collective(shape.op, g, false, "steady_clock",
                           {r.bytes, time_s, algbw, algbw * describe(shape.op).busbw_factor(static_cast<double>(n)), time_s, time_s});
        ++used;
    }
    std::printf("# %s:%d: %s, %lld ranks on %lld node(s) (%s), %zu of %zu rows\n", t.file.c_str(), t.line, name.c_str(), static_cast<long long>(n),
                static_cast<long long>(nodes), to_string(g.scope), used, t.rows.size());
    id.ranks = std::max(id.ranks, n), id.nodes = std::max(id.nodes, nodes);
    if (!t.device.empty() && !id.devices.empty() && id.devices.front().name != t.device)
        throw input_error(fmt::format("{}:{}", t.file, t.line),
                          msg("calibrate.mixed_gpus", {{"first", id.devices.front().name}, {"second", t.device}}));
    if (!t.device.empty()) id.devices = {{t.device, 0, id.ranks}};
    auto set_software = [&](const char* key, const std::string& v) {
        if (v.empty()) return;
        for (auto& [k, old] : id.software)
            if (k == key) return void(old = v);
        id.software.emplace_back(key, v);
    };
    set_software("nccl", t.nccl_version), set_software("nccl-tests", t.tests_version);
    id.provenance.hosts.insert(id.provenance.hosts.end(), t.hosts.begin(), t.hosts.end());
}

}  // namespace

calibration_profile import_profile(const import_options& o) {
    recorder rec;
    calibration_profile id;
    id.created = utc_now(), id.backend = "cuda", id.ranks = 1, id.nodes = 1;
    id.provenance.origin = "nccl-tests import";
    std::size_t tables = 0;
    for (const auto& path : o.logs)
        for (const auto& t : parse_any(path)) {
            if (t.rows.empty()) continue;
            add_table(t, o, rec, id), ++tables;
            id.provenance.inputs.push_back(path);
        }
    if (tables == 0) throw input_error(o.logs.front(), msg("calibrate.no_results_table"));
    std::set<std::string> hosts(id.provenance.hosts.begin(), id.provenance.hosts.end());
    id.provenance.hosts.assign(hosts.begin(), hosts.end());
    id.host = id.provenance.hosts.empty() ? "" : id.provenance.hosts.front();
    id.provenance.cluster_name = o.cluster_name;
    std::set<std::string> inputs(id.provenance.inputs.begin(), id.provenance.inputs.end());
    id.provenance.inputs.assign(inputs.begin(), inputs.end());
    if (id.devices.empty()) id.devices = {{"unknown GPU", 0, id.ranks}};
    id.devices.front().count = id.ranks;
    id.software.emplace_back("tslab", native::project_version());
    rec.set_identity(id);
    return rec.snapshot(true);
}

int import_main(int argc, char** argv) {
    import_options o;
    CLI::App app(
        "tslab-calibrate import: a tslab/calibration@1 profile from nccl-tests logs (text or -J JSON), fitted "
        "per op, group size and scope as a live run",
        "tslab-calibrate import");
    app.add_option("LOG", o.logs, "nccl-tests output files")->required()->type_name("LOG...");
    app.add_option("--out", o.out, "profile path, written atomically (default tslab-calibration.json)")->type_name("FILE");
    app.add_option("--op", o.op, "op of logs that do not name their test (allreduce, allgather, ...)")->type_name("OP");
    app.add_option("--ranks", o.ranks, "ranks of logs without a \"#  Rank\" list")->type_name("N");
    app.add_option("--nodes", o.nodes, "nodes of logs without a \"#  Rank\" list")->type_name("N");
    app.add_option("--cluster-name", o.cluster_name, "recorded in the profile's provenance")->type_name("NAME");
    try {
        app.parse(argc, argv);
        const calibration_profile p = import_profile(o);
        const std::string err = write_file_atomically(o.out, calibration_json_text(p) + "\n");
        if (!err.empty()) throw input_error("--out", msg("calibrate.write_failed", {{"reason", err}}));
        std::printf("# profile written to %s (%zu collective fits)\n", o.out.c_str(), p.collectives.size());
        return native::exit_ok;
    } catch (const CLI::Success&) {
        std::fputs(app.help().c_str(), stdout);
        return native::exit_ok;
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "error: %s\n", native::parse_error(app, e).what());
        return native::exit_input;
    } catch (const input_error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return native::exit_input;
    }
}

}  // namespace tslab::calibrate
