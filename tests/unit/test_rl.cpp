// L9's RL loop and checkpoint policy: KV bytes per token (GQA and MLA) against the models' published
// shapes, Blom's expected maximum against normal order-statistic tables, reshard = bytes /
// bandwidth, the rollout's decode roofline, reward forward and peak KV cache in closed form for
// fixed-length responses, goodput and Young/Daly closed forms, the iteration's phases, and the
// spec's errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "tslab/errors.hpp"
#include "tslab/rl.hpp"

using namespace tslab;
using ojson = nlohmann::ordered_json;

namespace {
std::string spec(const std::string& scenario, const std::string& rl = "{}", const std::string& extra = "") {
    return R"({"scenario": )" + scenario + R"(, "rl": )" + rl + extra + "}";
}
const char* const llama70b = R"({"model": "llama3-70b", "parallel": {"tp": 8, "pp": 4, "dp": 4}})";

// Fixed-length responses (σ = 0): every trajectory decodes exactly the median T = 4096 tokens after a
// P = 1024-token prompt (the context cap 9216 − 1024 = 8192 is never reached), so the integrals over
// the decode steps have closed forms.
rl_spec fixed_length(std::int64_t batch, std::int64_t inference_tp) {
    rl_spec r;
    r.rollout_batch = batch, r.prompt_tokens = 1024, r.response_median_tokens = 4096, r.tail_sigma = 0;
    r.context_tokens = 1024 + 8192, r.inference_tp = inference_tp;
    return r;
}

// Llama 3 8B on 8 H100 SXM, one GPU per decode replica.
scenario llama8b_on_8_h100() { return parse_scenario({{"model", "llama3-8b"}, {"cluster", "dgx-h100"}, {"parallel", {{"dp", 8}}}}); }
}  // namespace

TEST_CASE("KV bytes per token, GQA: Llama 3 70B caches 2 x 80 layers x 8 KV heads x 128 x 2 bytes", "[rl]") {
    // arXiv 2407.21783 Table 3: 70B has 80 layers, model dimension 8192, 64 heads, 8 KV heads
    // (head_dim 8192 / 64 = 128). BF16: 2 · 80 · 8 · 128 · 2 = 327,680 bytes per token.
    const scenario s = parse_scenario({{"model", "llama3-70b"}});
    CHECK(kv_bytes_per_token(s.model, 2) == 327680.0);
    CHECK(kv_tp_shards(s.model, 8) == 8);
    CHECK(kv_tp_shards(s.model, 16) == 8);  // past kv_heads the heads are replicated, not split
}

TEST_CASE("KV bytes per token, MLA: DeepSeek-V3 caches 61 layers x (512 + 64) x 2 bytes", "[rl]") {
    // arXiv 2412.19437 section 4.2: 61 layers, KV compression dimension d_c = 512, decoupled key
    // per-head dimension d_h^R = 64; DeepSeek-V2 arXiv 2405.04434 Table 1: MLA caches
    // (d_c + d_h^R) · l elements per token. BF16: 61 · 576 · 2 = 70,272 bytes.
    const scenario s = parse_scenario({{"model", "deepseek-v3"}});
    CHECK(kv_bytes_per_token(s.model, 2) == 70272.0);
    CHECK(kv_bytes_per_token(s.model, 1) == 35136.0);
    CHECK(kv_tp_shards(s.model, 8) == 1);  // the latent serves every head: each TP rank keeps all of it
}

TEST_CASE("Expected maximum of n log-normal lengths by Blom's approximation", "[rl]") {
    // Normal order statistics (Harter 1961, Biometrika 48; also Teichroew 1956): E[max of 10
    // standard normals] = 1.53875, of 100 = 2.50759. Blom's rule is within 1% there.
    CHECK(std::log(expected_max_lognormal(10, 1000, 1) / 1000) == Approx(1.53875).epsilon(0.01));
    CHECK(std::log(expected_max_lognormal(100, 1000, 0.5) / 1000) / 0.5 == Approx(2.50759).epsilon(0.01));
    CHECK(normal_quantile(0.975) == Approx(1.959964).epsilon(1e-6));
    CHECK(lognormal_survival(1000, 1000, 1) == Approx(0.5));  // the median
    CHECK(expected_max_lognormal(1000, 1000, 0) == Approx(1000));  // σ = 0: every length is the median
}

TEST_CASE("Reshard time = bytes per inference GPU / link bandwidth + latency", "[rl]") {
    // 1T parameters in BF16 = 2e12 bytes over 16-way inference TP, 50 GB/s: 2e12/16/50e9 = 2.5 s.
    CHECK(reshard_time_s(2e12, 16, link_spec{50e9, 0}) == Approx(2.5));
    CHECK(reshard_time_s(2e12, 16, link_spec{50e9, 1e-5}) == Approx(2.5 + 1e-5));
}

TEST_CASE("Checkpoint policy: Young/Daly for the blocking time, goodput by Daly's formula", "[rl][reliability]") {
    checkpoint_inputs in;
    in.total_bytes = 1e12, in.snapshot_bytes_per_gpu = 2e9, in.storage_Bps = 1e10, in.host_Bps = 2e10;
    in.rate_per_gpu_s = 1.0 / (1000.0 * 3600), in.gpus = 1000, in.restart_s = 300;
    const reliability_report sync = checkpoint_policy(in);
    // M = 1 h; δ = 1e12 / 1e10 = 100 s; Young τ = √(2·100·3600) = 848.5 s.
    CHECK(sync.mtbf_s == Approx(3600));
    CHECK(sync.blocking_s == Approx(100));
    CHECK(sync.young_s == Approx(std::sqrt(2.0 * 100 * 3600)));
    const double x = 100.0 / 7200;
    CHECK(sync.daly_s == Approx(std::sqrt(2.0 * 100 * 3600) * (1 + std::sqrt(x) / 3 + x / 9) - 100));
    const double R = 300 + 100, tau = sync.daly_s;  // restart reads the checkpoint back
    CHECK(sync.goodput == Approx(tau / (3600 * std::exp(R / 3600) * (std::exp((tau + 100) / 3600) - 1))));
    in.async = true;
    const reliability_report async = checkpoint_policy(in);
    CHECK(async.blocking_s == Approx(0.1));  // 2e9 / 2e10: only the copy to host stalls
    CHECK(async.interval_s >= async.write_s);
    CHECK(async.goodput > sync.goodput);
    in.interval_s = 600;
    CHECK(checkpoint_policy(in).interval_s == 600);
}

TEST_CASE("tslab rl: goodput falls with GPU count, phases add up, rollout binds at long context", "[rl]") {
    const ojson j = ojson::parse(rl_json_text(spec(llama70b, R"({"context_tokens": 1048576, "response_median_tokens": 65536})")));
    CHECK(j["schema"] == "tslab/rl@1");
    const auto& curve = j["reliability"]["curve"];
    for (std::size_t i = 1; i < curve.size(); ++i) CHECK(curve[i]["goodput"].get<double>() < curve[i - 1]["goodput"].get<double>());
    const auto& it = j["iteration"];
    double sum = 0, share = 0;
    for (const auto& p : it["phases"]) sum += p["time_s"].get<double>(), share += p["share"].get<double>();
    CHECK(sum == Approx(it["iteration_s"].get<double>()));
    CHECK(share == Approx(1));
    CHECK(it["phases"][2]["id"] == "rollout");
    CHECK(it["phases"][2]["share"].get<double>() > 0.5);
    CHECK(it["kv_bytes_per_token"].get<double>() == 327680.0);
    CHECK(it["response_max_tokens"].get<double>() <= 1048576 - 1024);
    CHECK(it["tail_idle_fraction"].get<double>() > 0);
}

TEST_CASE("Tail idle = 1 − mean / longest when the longest response hits the context", "[rl]") {
    // Median 4096, σ 1, 512 trajectories: Blom's longest is 4096·e^{2.97} ≈ 80K tokens, past the
    // 32768 − 1024 cap, so every slot spans the capped length and the busy share is E[min(R, cap)] / cap.
    const ojson j = ojson::parse(rl_json_text(spec(llama70b)));
    const auto& it = j["iteration"];
    const double cap = 32768 - 1024;
    CHECK(it["response_max_tokens"].get<double>() == cap);
    CHECK(it["tail_idle_fraction"].get<double>() == Approx(1 - it["response_mean_tokens"].get<double>() / cap).epsilon(1e-3));
    CHECK(it["idle_s"].get<double>() == Approx(it["phases"][2]["time_s"].get<double>() * it["tail_idle_fraction"].get<double>()));
}

TEST_CASE("Rollout decode time: the roofline integral in closed form for fixed-length responses", "[rl]") {
    // Llama 3 8B: N = 8,030,261,248 (Hugging Face meta-llama/Meta-Llama-3-8B safetensors total_size
    // 16,060,522,496 B / 2), so a decode step reads W = 2N = 16,060,522,496 B of BF16 weights; KV per
    // token k = 2·32 layers·8 KV heads·128·2 B = 131,072 B (arXiv 2407.21783 Table 3). H100 SXM (NVIDIA
    // H100 datasheet, SXM column): 3.35e12 B/s HBM3, 989.5e12 FLOP/s dense BF16. inference_tp 1 on 8
    // GPUs: 8 replicas of B = 256 / 8 = 32 trajectories, all active for the T = 4096 steps.
    // Step at context c = P + t: bytes W + B·k·c, at least (W + B·k·P) / bw = 6.08 ms; FLOPs
    // B·(2N + 4·l·a·d·c) ≤ 32·(16.06e9 + 524,288·5120) = 6.0e11, 0.61 ms at peak, so every step is
    // memory-bound (roofline; Pope et al. arXiv 2211.05102 section 2) and
    //   time = ∫₀ᵀ (W + B·k·(P + t)) dt / bw = (T·W + B·k·(P·T + T²/2)) / bw
    //        = (4096·16,060,522,496 + 4,194,304·(4,194,304 + 8,388,608)) / 3.35e12
    //        = (65,783,900,143,616 + 52,776,558,133,248) / 3.35e12 = 35.391 s.
    const rl_result o = rl_iteration(llama8b_on_8_h100(), fixed_length(256, 1), 1.0);
    REQUIRE(o.phases[2].id == "rollout");
    CHECK(118'560'458'276'864.0 / 3.35e12 == Approx(o.phases[2].time_s).epsilon(1e-9));
    CHECK(4096 == o.response_max_tokens);
    CHECK(1.0 == o.decode_memory_bound_share);
    CHECK(0.0 == Approx(o.tail_idle_fraction).margin(1e-12));  // no slot empties before the last step
}

TEST_CASE("Reward forward: 2·N·tokens at reward_efficiency of the BF16 peak of every GPU", "[rl]") {
    // rl.hpp / the "reward" formula of tslab/rl@1: 2·active params·tokens / (GPUs·peak·efficiency), the
    // 2N forward FLOPs per token of Kaplan et al. arXiv 2001.08361 Table 1 (attention term left out).
    // Fixed-length responses: tokens = batch·(P + T) = 256·(1024 + 4096) = 1,310,720. Llama 3 8B
    // (N = 8,030,261,248, as above) on 8 H100 SXM (989.5e12 FLOP/s dense BF16) at efficiency 0.5:
    //   2·8,030,261,248·1,310,720 / (8·989.5e12·0.5) = 21,050,848,045,957,120 / 3.958e15 = 5.3186 s.
    rl_spec r = fixed_length(256, 1);
    r.reward_efficiency = 0.5;
    const rl_result o = rl_iteration(llama8b_on_8_h100(), r, 1.0);
    REQUIRE(o.phases[3].id == "reward");
    CHECK(1'310'720.0 == Approx(o.tokens).epsilon(1e-12));
    CHECK(21'050'848'045'957'120.0 / 3.958e15 == Approx(o.phases[3].time_s).epsilon(1e-12));
    r.reward = "rule";  // scored on the CPU: no GPU time
    CHECK(0.0 == rl_iteration(llama8b_on_8_h100(), r, 1.0).phases[3].time_s);
}

TEST_CASE("Peak KV cache per GPU: every trajectory's prompt and response, over the TP ranks that split it", "[rl]") {
    // Fixed-length responses: all B trajectories of a replica hold P + T = 1024 + 4096 = 5120 tokens at
    // the last step. Llama 3 8B, inference_tp 1 on 8 GPUs: B = 256 / 8 = 32, 131,072 B per token
    // (2·32·8·128·2, arXiv 2407.21783 Table 3): 32·5120·131,072 = 21,474,836,480 B.
    CHECK(21'474'836'480.0 == Approx(rl_iteration(llama8b_on_8_h100(), fixed_length(256, 1), 1.0).kv_peak_bytes_per_gpu).epsilon(1e-12));
    // Llama 3 70B (Table 3: 80 layers, 8 KV heads, head_dim 128): 2·80·8·128·2 = 327,680 B per token.
    // inference_tp 16 on 128 GPUs: 8 replicas of B = 512 / 8 = 64; 16 ranks share 8 KV heads, so each
    // holds one head, 327,680 / 8 = 40,960 B per token: 64·5120·40,960 = 13,421,772,800 B.
    const scenario l70 = parse_scenario(json::parse(llama70b));
    CHECK(13'421'772'800.0 == Approx(rl_iteration(l70, fixed_length(512, 16), 1.0).kv_peak_bytes_per_gpu).epsilon(1e-12));
    // DeepSeek-V3 MLA (arXiv 2412.19437 section 4.2: 61 layers, d_c = 512, d_h^R = 64; DeepSeek-V2 arXiv
    // 2405.04434 Table 1): 61·576·2 = 70,272 B per token, whole on every TP rank. inference_tp 8 on 16
    // GPUs: 2 replicas of B = 512 / 2 = 256: 256·5120·70,272 = 92,106,915,840 B.
    const scenario v3 = parse_scenario({{"model", "deepseek-v3"}, {"parallel", {{"dp", 16}}}});
    CHECK(92'106'915'840.0 == Approx(rl_iteration(v3, fixed_length(512, 8), 1.0).kv_peak_bytes_per_gpu).epsilon(1e-12));
}

TEST_CASE("tslab rl: errors name the field", "[rl]") {
    auto error_of = [](const std::string& text) {
        try {
            rl_json_text(text);
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error_of(spec(llama70b, R"({"context_tokens": 512})")).rfind("rl.context_tokens:", 0) == 0);
    CHECK(error_of(spec(llama70b, R"({"inference_tp": 3})")).rfind("rl.inference_tp:", 0) == 0);
    CHECK(error_of(spec(llama70b, R"({"reward": "judge"})")).rfind("rl.reward:", 0) == 0);
    CHECK(error_of(spec(llama70b, R"({"tail_sigma": -1})")).rfind("rl.tail_sigma:", 0) == 0);
    CHECK(error_of(spec(llama70b, R"({"batch": 4})")).rfind("rl.batch:", 0) == 0);
    CHECK(error_of(spec(llama70b, "{}", R"(, "gpus": [1024, 0])")).rfind("gpus[1]:", 0) == 0);
    CHECK(error_of(spec(R"({"model": "llama3-70b", "parallel": {"tp": 7}})")).rfind("scenario.parallel.tp:", 0) == 0);
    CHECK(error_of(R"({"rl": {}})").rfind("scenario:", 0) == 0);
    CHECK(error_of(spec(R"({"training": {"reliability": {"checkpoint_interval_s": -1}}})"))
              .rfind("scenario.training.reliability.checkpoint_interval_s:", 0) == 0);
}
