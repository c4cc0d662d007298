// TSLAB_CALIBRATE_FAULT: one rank fails at a chosen probe, so tests can check the stop protocol.
#include "faults.hpp"

#include <csignal>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab::calibrate {

namespace {

struct fault {
    int rank = -1;
    std::string at, kind = "error";
    bool fired = false;
};

fault parse_fault(const std::string& text) {
    fault f;
    std::map<std::string, std::string> kv;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos) throw input_error("TSLAB_CALIBRATE_FAULT", msg("calibrate.fault_spec", {{"text", text}}));
        kv[item.substr(0, eq)] = item.substr(eq + 1);
        start = comma + 1;
    }
    f.rank = kv.count("rank") ? std::atoi(kv["rank"].c_str()) : 0;
    f.at = kv["at"];
    if (kv.count("kind")) f.kind = kv["kind"];
    if (f.at.empty() || (f.kind != "error" && f.kind != "hang" && f.kind != "sigint" && f.kind != "abort"))
        throw input_error("TSLAB_CALIBRATE_FAULT", msg("calibrate.fault_spec", {{"text", text}}));
    return f;
}

fault& configured() {
    static fault f = [] {
        const char* v = std::getenv("TSLAB_CALIBRATE_FAULT");
        return v && *v ? parse_fault(v) : fault{};
    }();
    return f;
}

}  // namespace

void check_fault_variable() { configured(); }

void inject_fault(int rank, const std::string& probe) {
    fault& f = configured();
    if (f.at.empty() || f.fired || f.rank != rank || f.at != probe) return;
    f.fired = true;
    if (f.kind == "error") throw std::runtime_error(fmt::format("injected fault at {} (TSLAB_CALIBRATE_FAULT)", probe));
    if (f.kind == "sigint") return void(std::raise(SIGINT));
    if (f.kind == "abort") std::abort();
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // "hang"
}

}  // namespace tslab::calibrate
