// The embind facade for the model's accuracy: the validation set's predictions and the closest run class of a scenario.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/accuracy_class.hpp"

namespace {

// The error summary of the published runs closest to the scenario (the lab's note by the step result).
tslab::wasm::outcome accuracy_class(const std::string& scenario_json) {
    return tslab::wasm::guarded([&] { return tslab::accuracy_class_json_text(scenario_json); });
}

// Every published run of the embedded training set against the model (tslab accuracy).
tslab::wasm::outcome accuracy() {
    return tslab::wasm::guarded([] { return tslab::accuracy_json_text(tslab::embedded_accuracy()); });
}

// The published runs the model is validated on, not fitted to (tslab accuracy --published).
tslab::wasm::outcome accuracy_published() {
    return tslab::wasm::guarded([] { return tslab::accuracy_json_text(tslab::embedded_published_accuracy()); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_accuracy) {
    emscripten::function("accuracyClass", &accuracy_class);
    emscripten::function("accuracy", &accuracy);
    emscripten::function("accuracyPublished", &accuracy_published);
}
