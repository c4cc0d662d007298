// Parsing nccl-tests output: text tables across versions (launcher prefixes, "error" or "#wrong",
// missing redop/root cells, N/A), the device list, versions, and the -J JSON file (src/util.cu).
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "import.hpp"
#include "tslab/errors.hpp"

namespace tslab::calibrate {

std::string op_from_program(const std::string& program) {
    // Longest names first: "reduce_scatter" and "all_reduce" contain "reduce".
    static const std::pair<const char*, const char*> names[] = {
        {"reduce_scatter_perf", "reducescatter"}, {"all_reduce_perf", "allreduce"}, {"all_gather_perf", "allgather"},
        {"alltoall_perf", "alltoall"}, {"broadcast_perf", "broadcast"}, {"sendrecv_perf", "sendrecv"}, {"reduce_perf", "reduce"}};
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

bool integer(const std::string& t) { return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos; }
bool number(const std::string& t) {
    char* end = nullptr;
    std::strtod(t.c_str(), &end);
    return !t.empty() && end && *end == 0;
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

std::vector<nccl_tests_table> parse_nccl_tests_json(const std::string& text, const std::string& file) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw input_error(file, msg("calibrate.not_nccl_json", {{"detail", e.what()}}));
    }
    nccl_tests_table t;
    t.file = file;
    if (doc.contains("args") && doc["args"].is_array() && !doc["args"].empty()) t.program = doc["args"][0].get<std::string>();
    t.op = op_from_program(t.program);
    if (doc.contains("nccl_version") && doc["nccl_version"].is_number_integer()) {
        const int v = doc["nccl_version"].get<int>();  // NCCL_VERSION_CODE: major*10000 + minor*100 + patch
        t.nccl_version = fmt::format("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100);
    }
    std::set<std::string> hosts;
    if (doc.contains("config") && doc["config"].contains("devices"))
        for (const auto& d : doc["config"]["devices"]) {
            ++t.ranks;
            hosts.insert(d.value("hostname", std::string{}));
            t.device = d.value("device_info", std::string{});
        }
    t.hosts.assign(hosts.begin(), hosts.end());
    if (!doc.contains("results") || !doc["results"].is_array()) throw input_error(file, msg("calibrate.no_results_array"));
    for (const auto& r : doc["results"]) {
        if (!r.contains("out_of_place") || r["out_of_place"].is_null()) continue;
        const auto& o = r["out_of_place"];
        nccl_tests_row row;
        row.bytes = r.value("size", std::int64_t{0}), row.count = r.value("count", std::int64_t{0});
        row.time_us = o.value("time", 0.0), row.algbw_GBps = o.value("alg_bw", 0.0), row.busbw_GBps = o.value("bus_bw", 0.0);
        row.wrong = o.contains("nwrong") && o["nwrong"].is_number() && o["nwrong"].get<double>() > 0;
        t.rows.push_back(row);
    }
    return {t};
}

}  // namespace tslab::calibrate
