// Parsing nccl-tests output: text tables across versions (launcher prefixes, "error" or "#wrong",
// missing redop/root cells, N/A), the device list, versions, and the -J JSON file (src/util.cu).
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "import.hpp"
#include "tslab/errors.hpp"
#include "tslab/json_fields.hpp"
#include "tslab/json_parse.hpp"

namespace tslab::calibrate {

std::string op_from_program(const std::string& program) {
    // Longest names first: "reduce_scatter" and "all_reduce" contain "reduce".
    static const std::pair<const char*, const char*> names[] = {
        {"reduce_scatter_perf", "reducescatter"}, {"all_reduce_perf", "allreduce"}, {"all_gather_perf", "allgather"}, {"alltoall_perf", "alltoall"},
        {"broadcast_perf", "broadcast"},          {"sendrecv_perf", "sendrecv"},    {"reduce_perf", "reduce"}};
    for (const auto& [p, op] : names)
        if (program.find(p) != std::string::npos) return op;
    return "";
}

namespace {

// Launcher prefixes on every line: Open MPI --tag-output "[1,0]<stdout>:", srun --label "0: ", "[0] ".
std::string strip_prefix(const std::string& line) {
    static const std::regex prefix(R"(^\s*(\[\d+,\d+\]<std\w+>:|\d+:\s|\[\d+\]\s))");
    return std::regex_replace(line, prefix, "", std::regex_constants::format_first_only);
}

std::vector<std::string> tokens(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// Digits only, at most 15 of them (below 2^50: see max_size), so that no product overflows.
bool integer(const std::string& t) { return !t.empty() && t.size() <= 15 && t.find_first_not_of("0123456789") == std::string::npos; }
// A finite number ("nan" and "inf" are not measurements).
bool number(const std::string& t) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    return !t.empty() && end && *end == 0 && std::isfinite(v);
}

// A data row: size count type [redop] [root] then (time algbw busbw wrong) out of place and in place.
bool parse_row(const std::string& line, int lineno, nccl_tests_row& r) {
    auto t = tokens(line);
    while (!t.empty() && (t.back().find(':') != std::string::npos || t.back().find('-') == 4)) t.pop_back();  // -S timestamps
    if (t.size() < 11 || !integer(t[0]) || !integer(t[1]) || number(t[2])) return false;
    const std::size_t oop = t.size() - 8;
    for (std::size_t i = oop; i < oop + 3; ++i)
        if (!number(t[i])) return false;
    r.bytes = std::atoll(t[0].c_str()), r.count = std::atoll(t[1].c_str());
    r.time_us = std::atof(t[oop].c_str()), r.algbw_GBps = std::atof(t[oop + 1].c_str()), r.busbw_GBps = std::atof(t[oop + 2].c_str());
    const std::string& w = t[oop + 3];
    // "#wrong" counts elements; the pre-2.x "error" column held a maximum error (float sums: ~1e-6).
    r.wrong = w != "N/A" && (w.find_first_of(".e") != std::string::npos ? std::atof(w.c_str()) > 1e-3 : std::atoll(w.c_str()) > 0);
    r.line = lineno;
    return true;
}

struct text_state {
    std::string program, nccl_version, tests_version;
    std::vector<std::string> rank_hosts;
    std::string device;
    bool in_table = false;
};

void device_line(const std::string& line, text_state& s) {
    static const std::regex rank_re(R"(^#?\s*Rank\s+\d+\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\]\s+(.*\S)\s*$)");
    std::smatch m;
    if (std::regex_search(line, m, rank_re)) s.rank_hosts.push_back(m[1]), s.device = m[2];
}

void version_line(const std::string& line, text_state& s) {
    static const std::regex nccl_re(R"(NCCL version (\d+\.\d+\.\d+))"), tests_re(R"(nccl-tests version (\S+))");
    std::smatch m;
    if (std::regex_search(line, m, nccl_re)) s.nccl_version = m[1];
    if (std::regex_search(line, m, tests_re)) s.tests_version = m[1];
}

nccl_tests_table start_table(const text_state& s, const std::string& file, int lineno) {
    nccl_tests_table t;
    t.file = file, t.program = s.program, t.op = op_from_program(s.program), t.line = lineno;
    t.ranks = static_cast<std::int64_t>(s.rank_hosts.size());
    std::set<std::string> hosts(s.rank_hosts.begin(), s.rank_hosts.end());
    t.hosts.assign(hosts.begin(), hosts.end());
    t.device = s.device, t.nccl_version = s.nccl_version, t.tests_version = s.tests_version;
    return t;
}

}  // namespace

std::vector<nccl_tests_table> parse_nccl_tests_text(const std::string& text, const std::string& file) {
    std::vector<nccl_tests_table> out;
    text_state s;
    std::istringstream in(text);
    int lineno = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++lineno;
        const std::string line = strip_prefix(raw);
        const std::string prog = op_from_program(line);
        if (line.find("nThread") != std::string::npos && line.find("minBytes") != std::string::npos) s.rank_hosts.clear();
        if (line.find("Collective test starting:") != std::string::npos || (!prog.empty() && !s.in_table)) {
            std::smatch m;
            static const std::regex prog_re(R"(([\w./-]*_perf\w*))");
            if (std::regex_search(line, m, prog_re)) s.program = m[1];
        }
        device_line(line, s), version_line(line, s);
        const auto t = tokens(line);
        // The column header, or its units row when a log excerpt starts there.
        const bool header = (t.size() > 4 && t[0] == "#" && t[1] == "size" && t[2] == "count") ||
            (!s.in_table && t.size() > 2 && t[0] == "#" && t[1] == "(B)" && t[2] == "(elements)");
        if (header) {
            out.push_back(start_table(s, file, lineno));
            s.in_table = true;
            continue;
        }
        if (line.find("Avg bus bandwidth") != std::string::npos || line.find("Out of bounds") != std::string::npos) s.in_table = false;
        nccl_tests_row r;
        if (s.in_table && !out.empty() && parse_row(line, lineno, r)) out.back().rows.push_back(r);
    }
    return out;
}

namespace {

// Sizes and counts a table may hold: 2^50 bytes (a petabyte) is far past any buffer nccl-tests runs,
// and keeps every product the importer forms inside 64 bits.
constexpr std::int64_t max_size = std::int64_t{1} << 50;
constexpr double huge = std::numeric_limits<double>::max();

void read_devices(field_reader& r, nccl_tests_table& t) {
    const json* config = r.object("config");
    if (!config) return;
    field_reader c(*config, "config");
    const json* devices = c.raw("devices");
    if (!devices) return;
    if (!devices->is_array()) throw input_error(c.path_of("devices"), msg("input.expected_array", {{"got", json_type_name(*devices)}}));
    std::set<std::string> hosts;
    for (std::size_t i = 0; i < devices->size(); ++i) {
        field_reader d((*devices)[i], fmt::format("config.devices[{}]", i));
        ++t.ranks;
        hosts.insert(d.text("hostname", ""));
        t.device = d.text("device_info", "");
    }
    t.hosts.assign(hosts.begin(), hosts.end());
}

// One results[i]: the out-of-place columns, as the text form's (absent: an in-place-only row).
std::optional<nccl_tests_row> read_result(const json& j, const std::string& path) {
    field_reader r(j, path);
    const json* o = r.raw("out_of_place");
    if (!o || o->is_null()) return std::nullopt;
    field_reader c(*o, r.path_of("out_of_place"));
    nccl_tests_row row;
    row.bytes = r.integer("size", 0, 0, max_size), row.count = r.integer("count", 0, 0, max_size);
    row.time_us = c.number("time", 0, 0, huge), row.algbw_GBps = c.number("alg_bw", 0, 0, huge), row.busbw_GBps = c.number("bus_bw", 0, 0, huge);
    const json* wrong = c.raw("nwrong");  // a number, or "N/A" where the check did not run
    row.wrong = wrong && wrong->is_number() && wrong->get<double>() > 0;
    return row;
}

nccl_tests_table read_json_table(const json& doc, const std::string& file) {
    field_reader r(doc, "");
    nccl_tests_table t;
    t.file = file;
    if (const json* args = r.raw("args"); args && args->is_array() && !args->empty()) {
        if (!(*args)[0].is_string()) throw input_error("args[0]", msg("input.expected_string", {{"got", json_type_name((*args)[0])}}));
        t.program = (*args)[0].get<std::string>();
    }
    t.op = op_from_program(t.program);
    // NCCL_VERSION_CODE: major*10000 + minor*100 + patch; another form is left unread.
    if (const json* v = r.raw("nccl_version"); v && v->is_number_integer() && v->get<std::int64_t>() >= 0 && v->get<std::int64_t>() < 100'000'000) {
        const std::int64_t code = v->get<std::int64_t>();
        t.nccl_version = fmt::format("{}.{}.{}", code / 10000, (code / 100) % 100, code % 100);
    }
    read_devices(r, t);
    const json* results = r.raw("results");
    if (!results || !results->is_array()) throw input_error("results", msg("calibrate.no_results_array"));
    for (std::size_t i = 0; i < results->size(); ++i)
        if (auto row = read_result((*results)[i], fmt::format("results[{}]", i))) t.rows.push_back(*row);
    return t;
}

}  // namespace

std::vector<nccl_tests_table> parse_nccl_tests_json(const std::string& text, const std::string& file) {
    try {
        // The core's reader: its limits (size, depth, fields, numbers) and errors, as for a scenario.
        return {read_json_table(parse_json(text), file)};
    } catch (const input_error& e) {
        const bool whole = e.path().empty() || e.path() == "$";  // the document itself
        throw input_error(whole ? file : fmt::format("{}:{}", file, e.path()), e.msg());
    }
}

std::vector<nccl_tests_table> parse_nccl_tests(const std::string& text, const std::string& file) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') return parse_nccl_tests_json(text, file);
    return parse_nccl_tests_text(text, file);
}

}  // namespace tslab::calibrate
