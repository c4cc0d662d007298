// libFuzzer target: mesh SPEC text -> rank map JSON (tslab mesh, wasm mesh()).
#include "fuzz_entry.hpp"
#include "tslab/mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) { (void)tslab::mesh_json_text(t); });
}
