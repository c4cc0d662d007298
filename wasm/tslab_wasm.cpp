// The embind facade for reports and presets: free functions over JSON strings.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/report.hpp"

namespace {

std::string report(const std::string& scenario_json) {
    return tslab::wasm::guarded([&] { return tslab::report_json_text(scenario_json); });
}

std::string presets() {
    return tslab::wasm::guarded([] { return tslab::presets_json_text(); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_report) {
    emscripten::function("report", &report);
    emscripten::function("presets", &presets);
}
