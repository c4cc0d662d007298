// The embind facade for pipeline schedules: schedule(specJson) -> result JSON string.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/schedule_io.hpp"

namespace {

std::string schedule(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::schedule_json_text(spec_json); });
}

std::string schedule_trace(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::schedule_trace_text(spec_json); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_schedule) {
    emscripten::function("schedule", &schedule);
    emscripten::function("scheduleTrace", &schedule_trace);
}
