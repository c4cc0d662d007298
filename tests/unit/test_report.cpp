// The report wires the step model: step.* filled from compute, the simulator, the inventory and L6-L9.
#include <catch2/catch.hpp>

#include <cmath>

#include "tslab/reliability.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

report of(const char* text) { return build_report(parse_scenario_text(text)); }

double item_exposed(const report& r, std::initializer_list<const char*> axes) {
    double t = 0;
    for (const auto& it : r.comm.items)
        for (const char* a : axes)
            if (it.axis == a) t += it.step_exposed_s();
    return t;
}

}  // namespace

TEST_CASE("step ledgers come from the models: L3 compute, L4 simulator, L5-L7 inventory", "[report]") {
    const report r = of(R"({"model": "deepseek-v3", "cluster": "hgx-h800", "parallel": {"dp": 16, "ep": 16, "pp": 4, "tp": 2, "cp": 2},
        "training": {"seq_len": 4096, "global_batch": 256, "schedule": "1f1b", "overlap": {"dp": 0.5}}})");
    const auto& L = r.step.ledgers;
    REQUIRE(L.size() == 9);
    // L3 computes at the median GPU's pace; the slowest GPU's delay is waited for at collectives (L5, sync.hpp).
    CHECK(L[2].exposed_s == r.compute.step_compute_s - r.compute.slowest_gpu_step_s);
    CHECK(r.compute.slowest_gpu_step_s > 0);
    CHECK(L[3].exposed_s == Approx(r.timing.bubble_s + r.timing.p2p_exposed_s));
    CHECK(L[4].exposed_s == Approx(item_exposed(r, {"dp", "edp", "tp"}) + r.compute.slowest_gpu_step_s));
    CHECK(L[6].exposed_s == Approx(item_exposed(r, {"cp"})));
    // L6: the All-to-All plus the busiest rank's excess expert compute.
    CHECK(L[5].exposed_s > item_exposed(r, {"ep"}));
    double sum = 0;
    for (std::size_t i = 2; i <= 6; ++i) sum += L[i].exposed_s;
    CHECK(r.step.time_s == Approx(sum));
    CHECK(r.step.tokens_per_s == Approx(256.0 * 4096 / r.step.time_s));
    CHECK(r.step.mfu > 0);
    CHECK(r.step.mfu < 1);
    CHECK(r.timing.simulated);
}

TEST_CASE("training.moe.imbalance: L6 grows by the expert compute times (imbalance − 1)", "[report]") {
    const char* base = R"({"model": "deepseek-v3", "cluster": "hgx-h800", "parallel": {"dp": 8, "ep": 8, "pp": 8},
        "training": {"seq_len": 4096, "global_batch": 128, "moe": {"imbalance": %s}}})";
    char one[512], two[512];
    std::snprintf(one, sizeof one, base, "1");
    std::snprintf(two, sizeof two, base, "2");
    const report a = of(one), b = of(two);
    CHECK(b.step.ledgers[5].exposed_s - a.step.ledgers[5].exposed_s == Approx(a.compute.expert_step_s));
    CHECK(b.step.time_s - a.step.time_s == Approx(a.compute.expert_step_s));
}

TEST_CASE("training.reliability: goodput follows Daly's interval at the given MTBF and storage", "[report]") {
    const report r = of(R"({"model": "gpt-7.5b", "parallel": {"dp": 16},
        "training": {"reliability": {"job_mtbf_s": 36000, "checkpoint_storage_Bps": 1e10, "restart_s": 300}}})");
    const double delta = checkpoint_bytes(r.input).total() / 1e10;
    const double tau = daly_interval_s(delta, 36000);
    // The restart reads the checkpoint back at the storage bandwidth: R = 300 s + δ.
    CHECK(r.step.goodput == Approx(expected_goodput(tau, delta, 300 + delta, 36000)));
    CHECK(r.step.ledgers[8].time_s == Approx(delta));
}

TEST_CASE("every preset model gets a finite step in the report JSON, keys in a fixed order", "[report]") {
    for (const char* m : {"gpt-1.7b", "llama3-8b", "llama3-70b", "deepseek-v3", "kimi-k2"}) {
        INFO(m);
        const json j = report_to_json(build_report(parse_scenario(json{{"model", m}, {"cluster", "dgx-h100"}})));
        const json& st = j.at("step");
        std::vector<std::string> keys;
        for (auto it = st.begin(); it != st.end(); ++it) keys.push_back(it.key());
        CHECK(keys ==
              std::vector<std::string>{"time_s",
                                       "tokens_per_s",
                                       "tflops_per_gpu",
                                       "mfu",
                                       "hfu",
                                       "goodput",
                                       "model_flops_per_gpu",
                                       "hardware_flops_per_gpu",
                                       "flops_convention",
                                       "compute_s",
                                       "gemm_model",
                                       "ledgers",
                                       "bottleneck",
                                       "bottleneck_msg",
                                       "ep_overlap",
                                       "global_batch",
                                       "global_batch_source",
                                       "global_batch_rule",
                                       "global_batch_rule_msg",
                                       "micro_batch",
                                       "microbatches",
                                       "segments"});
        CHECK(std::isfinite(st["time_s"].get<double>()));
        CHECK(st["time_s"].get<double>() > 0);
        CHECK(st["ledgers"].size() == 9);
        CHECK_FALSE(st["bottleneck"].get<std::string>().empty());
    }
}
