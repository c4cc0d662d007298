// The embind facade: free functions over JSON strings; every C++ exception becomes a JS Error.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "tslab/report.hpp"

namespace {

// Run `fn`, turning any std::exception into a thrown JS Error with the same message
// (otherwise Emscripten 3.1.6 hands JS a bare pointer number).
template <class Fn>
std::string guarded(Fn&& fn) {
    try {
        return fn();
    } catch (const std::exception& e) {
        emscripten::val::global("Error").new_(std::string(e.what())).throw_();
    } catch (...) {
        emscripten::val::global("Error").new_(std::string("internal error")).throw_();
    }
    return {};
}

std::string report(const std::string& scenario_json) {
    return guarded([&] { return tslab::report_json_text(scenario_json); });
}

std::string presets() {
    return guarded([] { return tslab::presets_json_text(); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab) {
    emscripten::function("report", &report);
    emscripten::function("presets", &presets);
}
