// libFuzzer target: scenario text -> plan JSON (tslab plan, wasm plan()), under a 0.5 s search budget.
#include "fuzz_entry.hpp"
#include "tslab/planner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) {
        (void)tslab::plan_json_text(t, R"({"max_seconds": 0.5, "top": 3})");
    });
}
