// libFuzzer target: collective SPEC text -> timing JSON (tslab collective, wasm collective()).
#include "fuzz_entry.hpp"
#include "tslab/collectives.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) { (void)tslab::collective_json_text(t); });
}
