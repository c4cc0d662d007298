// Parsing the parallel plan and the training recipe, and the rules that tie the parts together.
#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/global_batch.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

namespace {

constexpr std::int64_t max_degree = 1 << 20;

const std::vector<std::string> dtype_names = {"fp32", "bf16", "fp16", "fp8", "none"};
const std::vector<std::string> schedule_names = {"gpipe", "1f1b", "interleaved", "zb-h1",
                                                 "zb-h2", "zbv", "dualpipe", "dualpipev"};

dtype dtype_of(const std::string& s) {
    for (std::size_t i = 0; i < dtype_names.size(); ++i)
        if (dtype_names[i] == s) return static_cast<dtype>(i);
    return dtype::none;
}

// Named recipes: {params, grads, master, optimizer, activations, gemm}.
precision_spec recipe(const std::string& name) {
    precision_spec p;
    p.recipe = name;
    auto set = [&](dtype a, dtype b, dtype c, dtype d, dtype e, dtype f) {
        p.params = a, p.grads = b, p.master = c, p.optimizer = d, p.activations = e, p.gemm = f;
    };
    // ZeRO (arXiv 1910.02054 section 3.1): fp16/bf16 params and grads, fp32 master + 2 moments = 16P.
    if (name == "bf16-mixed") set(dtype::bf16, dtype::bf16, dtype::fp32, dtype::fp32, dtype::bf16, dtype::bf16);
    // Megatron-LM default: gradients accumulated and reduced in fp32 (18P with Adam).
    if (name == "bf16-fp32-grads") set(dtype::bf16, dtype::fp32, dtype::fp32, dtype::fp32, dtype::bf16, dtype::bf16);
    if (name == "fp16-mixed") set(dtype::fp16, dtype::fp16, dtype::fp32, dtype::fp32, dtype::fp16, dtype::fp16);
    // DeepSeek-V3 (arXiv 2412.19437 section 3.3): FP8 GEMMs, bf16 moments, fp32 master and grads,
    // FP8-cached activations.
    if (name == "fp8-mixed") set(dtype::bf16, dtype::fp32, dtype::fp32, dtype::bf16, dtype::fp8, dtype::fp8);
    if (name == "fp32") set(dtype::fp32, dtype::fp32, dtype::none, dtype::fp32, dtype::fp32, dtype::fp32);
    return p;
}

const std::vector<std::string> recipe_names = {"bf16-mixed", "bf16-fp32-grads", "fp16-mixed", "fp8-mixed", "fp32"};

precision_spec parse_precision(const json* v) {
    if (!v) return recipe("bf16-mixed");
    if (v->is_string()) {
        json wrap = {{"recipe", *v}};
        return parse_precision(&wrap);
    }
    field_reader r(*v, "training.precision");
    precision_spec p = recipe(r.choice("recipe", "bf16-mixed", recipe_names));
    auto pick = [&](const char* key, dtype def, std::vector<std::string> allowed) {
        return dtype_of(r.choice(key, to_string(def), allowed));
    };
    p.params = pick("params", p.params, {"fp32", "bf16", "fp16", "fp8"});
    p.grads = pick("grads", p.grads, {"fp32", "bf16", "fp16"});
    p.master = pick("master", p.master, {"fp32", "none"});
    p.optimizer = pick("optimizer", p.optimizer, {"fp32", "bf16", "fp8"});
    p.activations = pick("activations", p.activations, {"fp32", "bf16", "fp16", "fp8"});
    p.gemm = pick("gemm", p.gemm, {"fp32", "bf16", "fp16", "fp8"});
    r.finish();
    if (p.params == dtype::fp32) p.master = dtype::none;  // the params are the master copy
    return p;
}

overlap_spec parse_overlap(const json* v) {
    overlap_spec o;
    if (!v) return o;
    field_reader r(*v, "training.overlap");
    o.dp = r.number("dp", 0, 0, 1);
    o.tp = r.number("tp", 0, 0, 1);
    o.pp = r.number("pp", 0, 0, 1);
    o.ep = r.number("ep", 0, 0, 1);
    o.cp = r.number("cp", 0, 0, 1);
    r.finish();
    return o;
}

offload_spec parse_offload(const json* v) {
    offload_spec o;
    if (!v) return o;
    field_reader r(*v, "training.offload");
    o.optimizer = r.number("optimizer", 0, 0, 1);
    o.activations = r.number("activations", 0, 0, 1);
    r.finish();
    return o;
}

moe_training_spec parse_moe_training(const json* v) {
    moe_training_spec m;
    if (!v) return m;
    field_reader r(*v, "training.moe");
    m.imbalance = r.number("imbalance", 0, 0, 1e4);
    if (m.imbalance > 0 && m.imbalance < 1)
        throw input_error("training.moe.imbalance", fmt::format("{:g} is below 1 (busiest / mean load; 0 = uniform routing)", m.imbalance));
    m.redundant_experts = r.integer("redundant_experts", 0, 0, 1 << 16);
    r.finish();
    return m;
}

reliability_spec parse_reliability(const json* v) {
    reliability_spec o;
    if (!v) return o;
    field_reader r(*v, "training.reliability");
    const bool rate = r.has("gpu_failure_rate_per_hour"), mtbf = r.has("job_mtbf_s");
    if (rate && mtbf)
        throw input_error("training.reliability.job_mtbf_s", "give either gpu_failure_rate_per_hour or job_mtbf_s, not both");
    o.gpu_failure_rate_per_hour = r.number("gpu_failure_rate_per_hour", o.gpu_failure_rate_per_hour, 1e-12, 1);
    o.job_mtbf_s = r.number("job_mtbf_s", 0, 1, 1e12);
    o.checkpoint_storage_Bps = r.number("checkpoint_storage_Bps", o.checkpoint_storage_Bps, 1e6, 1e16);
    o.restart_s = r.number("restart_s", o.restart_s, 0, 1e7);
    r.finish();
    return o;
}

}  // namespace

parallel_spec parse_parallel(const json& part) {
    field_reader r(part, "parallel");
    parallel_spec p;
    p.dp = r.integer("dp", 1, 1, max_degree);
    p.tp = r.integer("tp", 1, 1, 4096);
    p.pp = r.integer("pp", 1, 1, 4096);
    p.vpp = r.integer("vpp", 1, 1, 1024);
    p.ep = r.integer("ep", 1, 1, max_degree);
    p.etp = r.integer("etp", 1, 1, 4096);
    p.cp = r.integer("cp", 1, 1, 4096);
    p.cp_method = r.choice("cp_method", "ring", {"ring", "ulysses", "usp"});
    p.sp = r.boolean("sp", false);
    p.zero = static_cast<int>(r.integer("zero", 0, 0, 3));
    p.order = r.text("order", p.order);
    r.finish();
    if (p.world() > max_degree)
        throw input_error("parallel", fmt::format("dp·tp·pp·cp = {} GPUs exceeds the limit of {}", p.world(), max_degree));
    return p;
}

training_spec parse_training(const json& part, const parallel_spec& p) {
    field_reader r(part, "training");
    training_spec t;
    t.seq_len = r.integer("seq_len", 2048, 1, 100'000'000);
    t.micro_batch = r.integer("micro_batch", 1, 1, 1'000'000);
    // Default: the auto rule (global_batch.hpp), shared with the planner.
    t.global_batch_given = part.is_object() && part.contains("global_batch");
    t.global_batch = r.integer("global_batch", auto_global_batch(p.world(), t.seq_len, t.micro_batch * p.dp), 1, 1'000'000'000);
    const std::string rc = r.choice("recompute", "none", {"none", "selective", "full"});
    t.recompute = rc == "full" ? recompute_kind::full : rc == "selective" ? recompute_kind::selective : recompute_kind::none;
    t.flash_attention = r.boolean("flash_attention", true);
    t.precision = parse_precision(r.raw("precision"));
    const std::string opt = r.choice("optimizer", "adamw", {"adamw", "adam", "sgd", "muon", "adafactor"});
    const std::vector<std::string> opts = {"adamw", "adam", "sgd", "muon", "adafactor"};
    for (std::size_t i = 0; i < opts.size(); ++i)
        if (opts[i] == opt) t.optimizer = static_cast<optimizer_kind>(i);
    t.offload = parse_offload(r.object("offload"));
    const std::string sched = r.choice("schedule", "1f1b", schedule_names);
    for (std::size_t i = 0; i < schedule_names.size(); ++i)
        if (schedule_names[i] == sched) t.schedule = static_cast<schedule_kind>(i);
    t.overlap = parse_overlap(r.object("overlap"));
    t.moe = parse_moe_training(r.object("moe"));
    t.reliability = parse_reliability(r.object("reliability"));
    r.finish();
    return t;
}

const char* to_string(dtype t) {
    static const char* names[] = {"fp32", "bf16", "fp16", "fp8", "none"};
    return names[static_cast<int>(t)];
}
const char* to_string(schedule_kind s) {
    static const char* names[] = {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "zbv", "dualpipe", "dualpipev"};
    return names[static_cast<int>(s)];
}
const char* to_string(recompute_kind r) {
    static const char* names[] = {"none", "selective", "full"};
    return names[static_cast<int>(r)];
}
const char* to_string(optimizer_kind o) {
    static const char* names[] = {"adamw", "adam", "sgd", "muon", "adafactor"};
    return names[static_cast<int>(o)];
}
std::int64_t dtype_bytes(dtype t) {
    static const std::int64_t bytes[] = {4, 2, 2, 1, 0};
    return bytes[static_cast<int>(t)];
}

}  // namespace tslab
