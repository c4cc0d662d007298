// libFuzzer target: calibration profile text -> summary and validation (tslab validate, wasm
// validateProfile(), validation(), loadProfile()).
#include "fuzz_entry.hpp"
#include "tslab/calibration_check.hpp"
#include "tslab/calibration_summary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) {
        (void)tslab::calibration_summary_json_text(t);
        (void)tslab::validation_json_text(t, "");
    });
}
