// libFuzzer target: schedule SPEC text -> timeline JSON and trace (tslab schedule, wasm schedule()).
#include "fuzz_entry.hpp"
#include "tslab/schedule_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) {
        (void)tslab::schedule_json_text(t);
        (void)tslab::schedule_trace_text(t);
    });
}
