// The embind facade for the L7 long-context lab: a tslab/scenario@1 document in, tslab/context@1 out.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/context_methods.hpp"

namespace {

tslab::wasm::outcome context(const std::string& scenario_json) {
    return tslab::wasm::guarded([&] { return tslab::context_json_text(scenario_json); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_context) { emscripten::function("context", &context); }
