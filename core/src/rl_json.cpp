// tslab/rl@1: the spec reader (errors name rl.* / scenario.* / gpus paths) and the result JSON of
// `tslab rl` and the wasm rl(): the checkpoint policy, the goodput curve and one RL iteration.
#include <cmath>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/memory.hpp"
#include "tslab/report.hpp"
#include "tslab/rl.hpp"

namespace tslab {
namespace {

std::int64_t dtype_bytes_of(field_reader& r, const char* key) { return r.choice(key, "bf16", {"bf16", "fp8"}) == "fp8" ? 1 : 2; }

rl_spec parse_rl(const json* v, const scenario& s) {
    rl_spec o;
    if (!v) return o;
    field_reader r(*v, "rl");
    o.rollout_batch = r.integer("rollout_batch", o.rollout_batch, 1, 10'000'000);
    o.prompt_tokens = r.integer("prompt_tokens", o.prompt_tokens, 0, 100'000'000);
    o.response_median_tokens = r.integer("response_median_tokens", o.response_median_tokens, 1, 100'000'000);
    o.tail_sigma = r.number("tail_sigma", o.tail_sigma, 0, 4);
    o.context_tokens = r.integer("context_tokens", o.context_tokens, 2, 100'000'000);
    if (o.context_tokens <= o.prompt_tokens)
        throw input_error(
            "rl.context_tokens",
            msg("rl.no_room_for_response", {{"context", fmt::format("{}", o.context_tokens)}, {"prompt", fmt::format("{}", o.prompt_tokens)}}));
    o.inference_tp = r.integer("inference_tp", o.inference_tp, 1, 1 << 20);
    if (s.parallel.world() % o.inference_tp != 0)
        throw input_error(
            "rl.inference_tp",
            msg("rl.inference_tp_not_divide", {{"tp", fmt::format("{}", o.inference_tp)}, {"gpus", fmt::format("{}", s.parallel.world())}}));
    o.reshard_link = r.choice("reshard_link", o.reshard_link, {"inter_node", "intra_node"});
    o.reward = r.choice("reward", o.reward, {"policy", "rule"});
    o.reward_efficiency = r.number("reward_efficiency", o.reward_efficiency, 0.01, 1);
    o.weight_bytes = dtype_bytes_of(r, "weight_dtype");
    o.kv_bytes = dtype_bytes_of(r, "kv_dtype");
    r.finish();
    return o;
}

std::vector<double> parse_gpus(const json* v) {
    if (!v) return {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    if (!v->is_array() || v->empty() || v->size() > 64) throw input_error("gpus", msg("rl.gpus_not_array"));
    std::vector<double> out;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json& g = (*v)[i];
        if (!g.is_number_integer() || g.get<std::int64_t>() < 1 || g.get<std::int64_t>() > 10'000'000)
            throw input_error(fmt::format("gpus[{}]", i), msg("rl.gpu_count"));
        out.push_back(static_cast<double>(g.get<std::int64_t>()));
    }
    return out;
}

// The scenario parser names paths from its own root; inside the spec they sit under "scenario".
scenario parse_inner_scenario(const json* v) {
    if (!v) throw input_error("scenario", msg("rl.scenario_missing"));
    try {
        return parse_scenario(*v);
    } catch (const input_error& e) {
        throw input_error(e.path() == "$" ? "scenario" : "scenario." + e.path(), e.msg());
    }
}

json reliability_json(const reliability_report& r) {
    return json{{"gpus", 0},
                {"mtbf_s", r.mtbf_s},
                {"interval_s", r.interval_s},
                {"blocking_s", r.blocking_s},
                {"goodput", r.goodput},
                {"failure_loss", 1 - r.goodput}};
}

// Each formula with its source, as the lab prints it beside the figure.
json rl_formulas() {
    return json{{"mtbf",
                 "job MTBF = 1 / (per-GPU failure rate · GPUs); rate default: Llama 3, 419 interruptions in 54 days on 16,384 GPUs (arXiv 2407.21783 "
                 "§3.3.4)"},
                {"young", "τ = √(2·δ·M) (Young 1974)"},
                {"daly", "τ = √(2δM)·[1 + ⅓√(δ/2M) + δ/(18M)] − δ (Daly 2006)"},
                {"goodput", "τ / (M·e^{R/M}·(e^{(τ+δ)/M} − 1)) (Daly 2006)"},
                {"blocking", "sync: δ = checkpoint / storage bandwidth; async: δ = per-GPU state / host link"},
                {"kv", "GQA: 2·layers·kv_heads·head_dim·bytes; MLA: layers·(kv_lora_rank + rope_dim)·bytes (DeepSeek-V2 arXiv 2405.04434 §2.1.2)"},
                {"decode", "step = max((weights + active·context·KV) / HBM bw, FLOPs / peak) (roofline; Pope et al. arXiv 2211.05102)"},
                {"tail", "longest of N log-normal responses = median·e^{σ·Φ⁻¹((N − 0.375)/(N + 0.25))} (Blom 1958)"},
                {"reshard", "weights / inference TP / link bandwidth (checkpoint-engine broadcast, Kimi K2)"},
                {"reward", "2·active params·tokens / (GPUs·peak·efficiency)"}};
}

json checkpoint_json(const reliability_report& r, const report& rep) {
    double bubble = 0;
    for (const auto& seg : rep.step.segments)
        if (seg.id == "bubble") bubble = seg.share;
    return json{{"checkpoint_bytes", r.checkpoint.total()},
                {"snapshot_bytes_per_gpu", r.snapshot_bytes_per_gpu},
                {"write_s", r.write_s},
                {"snapshot_s", r.snapshot_s},
                {"async", r.async},
                {"blocking_s", r.blocking_s},
                {"mtbf_s", r.mtbf_s},
                {"young_s", r.young_s},
                {"daly_s", r.daly_s},
                {"interval_s", r.interval_s},
                {"restart_s", r.restart_total_s},
                {"goodput", r.goodput},
                {"failure_loss", 1 - r.goodput},
                {"step_s", rep.step.time_s},
                {"step_bubble_share", bubble}};
}

json iteration_json(const rl_result& o) {
    json phases = json::array();
    for (const auto& p : o.phases) phases.push_back({{"id", p.id}, {"time_s", p.time_s}, {"share", p.share}});
    return json{{"kv_bytes_per_token", o.kv_bytes_per_token},
                {"kv_peak_bytes_per_gpu", o.kv_peak_bytes_per_gpu},
                {"weight_bytes_per_gpu", o.weight_bytes_per_gpu},
                {"hbm_bytes", o.hbm_bytes},
                {"fits", o.fits},
                {"replicas", o.replicas},
                {"trajectories_per_replica", o.trajectories_per_replica},
                {"response_mean_tokens", o.response_mean_tokens},
                {"response_max_tokens", o.response_max_tokens},
                {"tokens", o.tokens},
                {"decode_memory_bound_share", o.decode_memory_bound_share},
                {"tail_idle_fraction", o.tail_idle_fraction},
                {"reshard_bytes_per_gpu", o.reshard_bytes_per_gpu},
                {"train_steps", o.train_steps},
                {"step_s", o.step_s},
                {"phases", phases},
                {"iteration_s", o.iteration_s},
                {"idle_s", o.idle_s},
                {"idle_share", o.idle_share}};
}

}  // namespace

std::string rl_json_text(const std::string& spec_text) {
    const json doc = parse_json(spec_text);
    field_reader top(doc, "");
    if (top.text("schema", "tslab/rl@1") != "tslab/rl@1") throw input_error("schema", msg("rl.schema"));
    const scenario s = parse_inner_scenario(top.raw("scenario"));
    const rl_spec r = parse_rl(top.object("rl"), s);
    const std::vector<double> gpus = parse_gpus(top.raw("gpus"));
    top.finish();
    const report rep = build_report(s, 0);
    const double snapshot = checkpoint_state_bytes_of(rep.memory);
    json curve = json::array();
    const auto points = goodput_curve(s, snapshot, gpus);
    for (std::size_t i = 0; i < points.size(); ++i) {
        curve.push_back(reliability_json(points[i]));
        curve.back()["gpus"] = gpus[i];
    }
    json out{{"schema", "tslab/rl@1"}, {"gpus", s.parallel.world()}};
    out["reliability"] = checkpoint_json(reliability_of_scenario(s, snapshot), rep);
    out["reliability"]["curve"] = std::move(curve);
    out["iteration"] = iteration_json(rl_iteration(s, r, rep.step.time_s));
    out["formulas"] = rl_formulas();
    return out.dump(2);
}

}  // namespace tslab
