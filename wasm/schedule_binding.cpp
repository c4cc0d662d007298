// The embind facade for pipeline schedules: schedule, scheduleTrace and scheduleWork (specJson) -> outcome with JSON.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/schedule_io.hpp"

namespace {

tslab::wasm::outcome schedule(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::schedule_json_text(spec_json); });
}

tslab::wasm::outcome schedule_trace(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::schedule_trace_text(spec_json); });
}

tslab::wasm::outcome schedule_work(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::schedule_work_text(spec_json); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_schedule) {
    emscripten::function("schedule", &schedule);
    emscripten::function("scheduleTrace", &schedule_trace);
    emscripten::function("scheduleWork", &schedule_work);
}
