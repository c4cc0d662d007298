// The embind facade for reports, presets, loaded profiles and memory figures: JSON strings in,
// outcomes ({ok, value, error}, guarded.hpp) out.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/stack.h>
#include <malloc.h>

#include <fmt/format.h>

#include "guarded.hpp"
#include "tslab/calibration_summary.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/messages.hpp"
#include "tslab/profile_store.hpp"
#include "tslab/report.hpp"

namespace {

using tslab::wasm::guarded;
using tslab::wasm::outcome;

outcome report(const std::string& scenario_json) {
    return guarded([&] { return tslab::report_json_text(scenario_json); });
}

// tslab/messages@1: every core message id with its English template (`tslab messages`).
outcome messages() {
    return guarded([] { return tslab::message_catalog_json_text(); });
}

outcome presets() {
    return guarded([] { return tslab::presets_json_text(); });
}

// Parses and checks a profile once and keeps it under `name`; scenarios then give
// "cluster.calibration": name. Returns its tslab/calibration-summary@1.
outcome load_profile(const std::string& name, const std::string& profile_json) {
    return guarded([&] {
        tslab::calibration_profile p = tslab::parse_calibration_text(profile_json, "");
        std::string summary = tslab::calibration_summary_to_json(p).dump(2);
        tslab::store_profile(name, std::move(p));
        return summary;
    });
}

void drop_profile(const std::string& name) { tslab::drop_profile(name); }

// For leak tests: the stack pointer, bytes in use on the heap, and the memory size.
std::string memory_stats() {
    const struct mallinfo mi = mallinfo();
    return fmt::format(R"({{"stack_pointer":{},"heap_in_use":{},"memory_bytes":{}}})", emscripten_stack_get_current(), mi.uordblks,
                       emscripten_get_heap_size());
}

// The input limits (json_parse.hpp), so the lab can refuse a large profile before sending it.
std::string input_limits() {
    const tslab::parse_limits& l = tslab::input_limits();
    return fmt::format(R"({{"max_bytes":{},"max_depth":{},"max_keys":{}}})", l.max_bytes, l.max_depth, l.max_keys);
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_report) {
    emscripten::value_object<outcome>("Outcome")
        .field("ok", &outcome::ok)
        .field("value", &outcome::value)
        .field("error_msg", &outcome::error_msg)
        .field("error", &outcome::error)
        .field("error_path", &outcome::error_path)
        .field("error_reason", &outcome::error_reason);
    emscripten::function("report", &report);
    emscripten::function("presets", &presets);
    emscripten::function("messages", &messages);
    emscripten::function("loadProfile", &load_profile);
    emscripten::function("dropProfile", &drop_profile);
    emscripten::function("memoryStats", &memory_stats);
    emscripten::function("inputLimits", &input_limits);
}
