// libFuzzer target: scenario text -> plan JSON (tslab plan, wasm plan()), on 8 GPUs under a 0.2 s and 2000-candidate budget
// (ASan + UBSan + coverage make the planner ~30x slower than native, and result() reports every Pareto
// entry outside the time budget: 172 entries on 16 GPUs took 13 s; inputs must finish in 5 s).
#include "fuzz_entry.hpp"
#include "tslab/planner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) {
        (void)tslab::plan_json_text(t, R"({"gpus": 8, "max_seconds": 0.2, "top": 2, "max_candidates": 2000})");
    });
}
