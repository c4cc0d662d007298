// libFuzzer target: schedule SPEC text -> timeline JSON and trace (tslab schedule, wasm schedule()).
#include <nlohmann/json.hpp>

#include "fuzz_entry.hpp"
#include "tslab/schedule_io.hpp"

namespace {

// The core caps a listing at max_listed_ops (100k ops, under 1 s natively), but ASan + UBSan with
// coverage run the listing ~40x slower: 14,400 ZB-V ops took 3.7 s of CPU. Above this many ops the
// target stops after the core's own work estimate (parsing, rules and caps, before any work), so
// every input stays under libFuzzer's 5 s; the caps themselves are unit-tested (test_schedule_io).
constexpr double fuzz_max_ops = 4000;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) {
        const auto work = nlohmann::json::parse(tslab::schedule_work_text(t));
        if (work.at("work_ops").get<double>() > fuzz_max_ops) return;
        (void)tslab::schedule_json_text(t);
        (void)tslab::schedule_trace_text(t);
    });
}
