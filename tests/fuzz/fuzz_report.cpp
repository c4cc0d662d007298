// libFuzzer target: scenario text -> report (tslab report, wasm report()).
#include "fuzz_entry.hpp"
#include "tslab/report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) { (void)tslab::report_json_text(t); });
}
