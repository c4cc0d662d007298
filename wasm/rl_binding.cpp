// The embind facade for the L9 reliability and RL lab: a tslab/rl@1 spec in, an outcome out.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/rl.hpp"

namespace {

tslab::wasm::outcome rl(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::rl_json_text(spec_json); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_rl) { emscripten::function("rl", &rl); }
