// The embind facade for the communication and mesh labs: JSON strings in, outcomes (guarded.hpp) out.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/collectives.hpp"
#include "tslab/mesh.hpp"

namespace {

tslab::wasm::outcome collective(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::collective_json_text(spec_json); });
}

tslab::wasm::outcome mesh(const std::string& spec_json) {
    return tslab::wasm::guarded([&] { return tslab::mesh_json_text(spec_json); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_collective) {
    emscripten::function("collective", &collective);
    emscripten::function("mesh", &mesh);
}
