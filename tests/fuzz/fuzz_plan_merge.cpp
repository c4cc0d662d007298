// libFuzzer target: the parts' states text -> the merged plan JSON (wasm planMerge: states that come
// from the lab's Web Workers), for a fixed small search (Llama 3 8B cut to 4 layers on 8 GPUs).
#include "fuzz_entry.hpp"
#include "tslab/planner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) {
        (void)tslab::plan_merge_json_text(R"({"model": {"preset": "llama3-8b", "layers": 4}, "cluster": "dgx-h100",
            "training": {"seq_len": 2048, "global_batch": 16}})",
                                          R"({"gpus": 8, "top": 2, "max_seconds": 0.2})", t);
    });
}
