// Harness internals: repeats and medians, stop flag, atomic profile writing, table and progress bar.
#include "harness.hpp"

#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "tslab/errors.hpp"
#include "tslab/robust_fit.hpp"

namespace tslab::calibrate {

timing measure(const world& w, int repeats, int average, const std::function<double()>& per_iter_s) {
    std::vector<double> t;
    timing out;
    for (int r = 0; r < repeats; ++r) {
        t.push_back(w.reduce_time(per_iter_s(), average));
        if (r + 1 < repeats && stopper().agreed(const_cast<world&>(w))) {
            out.stopped = true;
            return out;
        }
    }
    out.median_s = median(t);
    out.min_s = *std::min_element(t.begin(), t.end());
    out.max_s = *std::max_element(t.begin(), t.end());
    return out;
}

void stop_control::arm(double timeout_s) {
    timeout_s_ = timeout_s;
    has_deadline_ = timeout_s > 0;
    deadline_ =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeout_s));
}

bool stop_control::deadline_passed() const { return has_deadline_ && std::chrono::steady_clock::now() >= deadline_; }

bool stop_control::local() const { return requested_.load() || deadline_passed(); }

bool stop_control::agreed(const world& w) {
    long long v[3] = {signal_.load(), signal_.load() ? std::max(signal_rank_.load(), 0) : -1, deadline_passed() ? 1 : 0};
    if (v[0] && signal_rank_.load() < 0) v[1] = w.rank;  // the signal arrived here
    w.max_ints(v, 3);
    if (v[0] || v[2]) std::copy(v, v + 3, agreed_);
    return v[0] || v[2];
}

std::string stop_control::reason() const {
    if (agreed_[0]) {
        const char* name = agreed_[0] == SIGINT ? "SIGINT" : agreed_[0] == SIGTERM ? "SIGTERM" : "a signal";
        return fmt::format("{} on rank {}", name, agreed_[1]);
    }
    if (agreed_[2]) return fmt::format("--timeout {:g} s", timeout_s_);
    return {};
}

stop_control& stopper() {
    static stop_control s;
    return s;
}

void recorder::set_identity(const calibration_profile& id) {
    std::lock_guard lock(m_);
    auto cols = std::move(p_.collectives);
    auto gemm = std::move(p_.gemm);
    auto mem = std::move(p_.memory);
    p_ = id;
    p_.collectives = std::move(cols), p_.gemm = std::move(gemm), p_.memory = std::move(mem);
}

void recorder::add_collective(collective_op op, const group& g, bool in_place, const std::string& timer, const collective_sample& s) {
    std::lock_guard lock(m_);
    for (auto& c : p_.collectives)
        if (c.op == op && c.ranks == g.size && c.scope == g.scope) {
            c.samples.push_back(s);
            return;
        }
    collective_fit c;
    c.op = op, c.ranks = g.size, c.scope = g.scope, c.in_place = in_place, c.timer = timer;
    c.samples.push_back(s);
    p_.collectives.push_back(std::move(c));
}

void recorder::add_gemm(const gemm_sample& s) {
    std::lock_guard lock(m_);
    p_.gemm.samples.push_back(s);
}

void recorder::add_memory(const memory_sample& s) {
    std::lock_guard lock(m_);
    p_.memory.samples.push_back(s);
}

namespace {
// A probe's figure is its rate at the largest size measured (streaming, beyond the caches).
void derive_memory_figures(memory_figures& m) {
    auto largest = [&m](const char* probe) {
        const memory_sample* best = nullptr;
        for (const auto& s : m.samples)
            if (s.probe == probe && (!best || s.bytes > best->bytes)) best = &s;
        return best;
    };
    auto rate = [&](const char* probe) {
        const auto* s = largest(probe);
        return s ? s->Bps : 0.0;
    };
    m.device_copy_Bps = rate("d2d");
    m.host_to_device_Bps = rate("h2d");
    m.device_to_host_Bps = rate("d2h");
    m.host_memcpy_Bps = rate("memcpy");
    const auto* l = largest("launch");
    m.launch_latency_s = l ? l->time_s : 0;
}
}  // namespace

calibration_profile recorder::snapshot(bool complete) const {
    calibration_profile p;
    {
        std::lock_guard lock(m_);
        p = p_;
    }
    p.complete = complete;
    std::erase_if(p.collectives, [](const collective_fit& c) { return c.samples.empty(); });
    derive_memory_figures(p.memory);
    fit_calibration(p);
    return p;
}

std::string recorder::write(const std::string& path, bool complete, const std::string& stop_reason) {
    static std::mutex one_at_a_time;
    std::lock_guard lock(one_at_a_time);
    calibration_profile p = snapshot(complete);
    if (!complete) p.provenance.stop_reason = stop_reason;
    return write_file_atomically(path, calibration_json_text(p) + "\n");
}

progress::progress(bool enabled, std::int64_t total) : enabled_(enabled && ::isatty(2)), total_(std::max<std::int64_t>(total, 1)) {}

void progress::step(const std::string& what) {
    ++done_;
    if (!enabled_) return;
    const int width = 30, fill = static_cast<int>(width * std::min(done_, total_) / total_);
    std::fprintf(stderr, "\r[%s%s] %3lld/%lld %-40.40s", std::string(static_cast<std::size_t>(fill), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - fill), ' ').c_str(), static_cast<long long>(done_), static_cast<long long>(total_),
                 what.c_str());
    std::fflush(stderr);
}

void progress::finish() {
    if (enabled_) std::fprintf(stderr, "\r%90s\r", "");
}

std::string nccl_float(double v, int width) {
    for (const char* f : {"{:>{}.2f}", "{:>{}.1f}", "{:>{}.0f}"}) {
        std::string out = fmt::format(fmt::runtime(f), v, width);
        if (static_cast<int>(out.size()) <= width) return out;
    }
    return fmt::format("{:>{}.1e}", v, width);
}

std::string table_header(const std::string& title) {
    // Column widths as nccl-tests' writeResultHeader (src/util.cu), with a title line above.
    return fmt::format(
        "#\n# {}\n#\n"
        "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}           out-of-place                       in-place          \n"
        "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}\n"
        "# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}\n",
        title, "", "", "", "", "", "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong",
        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
}

namespace {
std::string placement_cells(const placement_result& r) {
    const std::string wrong = r.checked ? fmt::format("{:>6}", r.wrong) : "   N/A";
    return fmt::format("  {}  {}  {}  {}", nccl_float(r.time_s * 1e6, 7), nccl_float(r.algbw_Bps / 1e9, 6), nccl_float(r.busbw_Bps / 1e9, 6), wrong);
}
}  // namespace

std::string table_row(std::int64_t bytes, std::int64_t count, const char* type, const char* redop, int root, const placement_result& out_of_place,
                      const placement_result& in_place) {
    return fmt::format("{:>12}  {:>12}  {:>8}  {:>6}  {:>6}{}{}\n", bytes, count, type, redop, root, placement_cells(out_of_place),
                       placement_cells(in_place));
}

std::string table_footer(std::int64_t rows_with_errors, double avg_busbw_Bps) {
    // writeResultFooter: "# %-20s : %d %s" and "# %-20s : %g".
    return fmt::format("# {:<20} : {} {}\n# {:<20} : {:g} \n#\n", "Out of bounds values", rows_with_errors, rows_with_errors ? "FAILED" : "OK",
                       "Avg bus bandwidth", avg_busbw_Bps / 1e9);
}

double available_host_bytes() { return static_cast<double>(::sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE)); }

void check_fits(std::int64_t need, int ranks_on_node, double available, const char* where) {
    const double total = static_cast<double>(need) * ranks_on_node;
    if (total <= 0.8 * available) return;
    throw input_error("-e",
                      msg("calibrate.host_memory",
                          {{"what", where},
                           {"need", fmt::format("{:.3g}", static_cast<double>(need) / 1e9)},
                           {"ranks", std::to_string(ranks_on_node)},
                           {"total", fmt::format("{:.3g}", total / 1e9)},
                           {"available", fmt::format("{:.3g}", available / 1e9)}}));
}

int rotations_for(std::int64_t bytes) {
    const std::int64_t cover = 64LL << 20;
    return static_cast<int>(std::clamp<std::int64_t>((cover + bytes - 1) / std::max<std::int64_t>(bytes, 1), 2, 8));
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace tslab::calibrate
