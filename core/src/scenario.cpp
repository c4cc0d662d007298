// Parsing tslab/scenario@1: presets, defaults, ranges, then cross-field rules.
#include "tslab/scenario.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tslab/calibrated_figures.hpp"
#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/presets.hpp"
#include "tslab/profile_store.hpp"

namespace tslab {

namespace {

constexpr std::int64_t big = 1'000'000'000;  // upper bound for counts: keeps products in int64

// `{"preset": name, ...}` -> preset's fields overlaid by the rest; plain objects pass through.
json resolve_part(const json& part, const std::string& path, json (*lookup)(const std::string&, const std::string&)) {
    if (part.is_string()) return lookup(part.get<std::string>(), path);
    if (!part.is_object()) throw input_error(path, msg("scenario.part_not_object"));
    auto it = part.find("preset");
    if (it == part.end()) return part;
    if (!it->is_string()) throw input_error(path + ".preset", msg("scenario.preset_not_string"));
    return merge_objects(lookup(it->get<std::string>(), path + ".preset"), part);
}

attention_kind parse_attention(field_reader& r, std::int64_t heads, std::int64_t kv_heads) {
    static const std::vector<std::string> names = row_names(attention_rows);
    const attention_kind def = kv_heads == heads ? attention_kind::mha : attention_kind::gqa;
    const attention_kind a = find_row(attention_rows, r.choice("attention", describe(def).name, names))->kind;
    if (a == attention_kind::mha && kv_heads != heads)
        throw input_error(r.path_of("kv_heads"),
                          msg("scenario.kv_heads_not_mha", {{"kv_heads", fmt::format("{}", kv_heads)}, {"heads", fmt::format("{}", heads)}}));
    return a;
}

mla_spec parse_mla(const json* obj, const std::string& path) {
    mla_spec m;
    if (!obj) return m;
    field_reader r(*obj, path);
    m.q_lora_rank = r.integer("q_lora_rank", m.q_lora_rank, 0, big);
    m.kv_lora_rank = r.integer("kv_lora_rank", m.kv_lora_rank, 1, big);
    m.qk_nope_head_dim = r.integer("qk_nope_head_dim", m.qk_nope_head_dim, 1, 1 << 16);
    m.qk_rope_head_dim = r.integer("qk_rope_head_dim", m.qk_rope_head_dim, 0, 1 << 16);
    m.v_head_dim = r.integer("v_head_dim", m.v_head_dim, 1, 1 << 16);
    r.finish();
    return m;
}

// Groups split the experts evenly, and the kept groups must hold top_k experts.
void check_route_groups(const moe_spec& m, const std::string& path) {
    if (m.groups == 1 || m.topk_groups >= m.groups) return;
    if (m.experts % m.groups != 0)
        throw input_error(path + ".groups", msg("scenario.groups_split", {{"groups", num_text(m.groups)}, {"experts", num_text(m.experts)}}));
    if (m.top_k > m.topk_groups * (m.experts / m.groups))
        throw input_error(
            path + ".topk_groups",
            msg("scenario.topk_groups_small",
                {{"topk_groups", num_text(m.topk_groups)}, {"per_group", num_text(m.experts / m.groups)}, {"top_k", num_text(m.top_k)}}));
}

moe_spec parse_moe(const json* obj, const std::string& path, std::int64_t layers, std::int64_t ffn) {
    moe_spec m;
    if (!obj) return m;
    field_reader r(*obj, path);
    m.experts = r.integer("experts", 0, 0, 1 << 16);
    m.top_k = r.integer("top_k", m.experts > 0 ? 2 : 0, 0, 1 << 16);
    m.shared_experts = r.integer("shared_experts", 0, 0, 1 << 10);
    m.expert_ffn_hidden = r.integer("expert_ffn_hidden", ffn, 1, big);
    m.dense_layers = r.integer("dense_layers", 0, 0, layers);
    m.capacity_factor = r.number("capacity_factor", 0, 0, 1024);
    m.groups = r.integer("groups", 1, 1, 1 << 16);
    m.topk_groups = r.integer("topk_groups", m.groups, 1, 1 << 16);  // ≥ groups: every group stays
    r.finish();
    if (m.experts > 0 && (m.top_k < 1 || m.top_k > m.experts))
        throw input_error(path + ".top_k",
                          msg("scenario.top_k_range", {{"top_k", fmt::format("{}", m.top_k)}, {"experts", fmt::format("{}", m.experts)}}));
    check_route_groups(m, path);
    if (m.experts > 0 && m.dense_layers >= layers)
        throw input_error(path + ".dense_layers",
                          msg("scenario.no_moe_layer", {{"dense_layers", fmt::format("{}", m.dense_layers)}, {"layers", fmt::format("{}", layers)}}));
    return m;
}

model_spec parse_model(const json& part) {
    const json obj = resolve_part(part, "model", model_preset);
    field_reader r(obj, "model");
    model_spec m;
    r.text("source", "");
    m.name = r.text("name", "custom");
    m.layers = r.integer("layers", 24, 1, 100'000);
    m.hidden = r.integer("hidden", 2048, 1, 1 << 20);
    m.heads = r.integer("heads", 16, 1, 1 << 16);
    m.kv_heads = r.integer("kv_heads", m.heads, 1, m.heads);
    if (m.heads % m.kv_heads != 0)
        throw input_error(
            "model.kv_heads",
            msg("input.does_not_divide", {{"value", fmt::format("{}", m.kv_heads)}, {"what", "model.heads"}, {"n", fmt::format("{}", m.heads)}}));
    m.head_dim = r.integer("head_dim", m.hidden / m.heads, 1, 1 << 16);
    static const std::vector<std::string> ffns = row_names(ffn_rows), norms = row_names(norm_rows);
    m.ffn = find_row(ffn_rows, r.choice("ffn_type", ffns.front(), ffns))->kind;
    m.ffn_hidden = r.integer("ffn_hidden", 4 * m.hidden, 1, big);
    m.vocab = r.integer("vocab", 51200, 1, 100'000'000);
    m.position_embeddings = r.integer("position_embeddings", 0, 0, 100'000'000);
    m.tied_embeddings = r.boolean("tied_embeddings", false);
    m.norm = find_row(norm_rows, r.choice("norm", norms.front(), norms))->kind;
    m.bias = r.boolean("bias", false);
    m.dropout = r.boolean("dropout", false);
    m.attention = parse_attention(r, m.heads, m.kv_heads);
    m.mla = parse_mla(r.object("mla"), "model.mla");
    m.moe = parse_moe(r.object("moe"), "model.moe", m.layers, m.ffn_hidden);
    r.finish();
    return m;
}

link_spec parse_link(const json* obj, const std::string& path, link_spec def) {
    if (!obj) return def;
    field_reader r(*obj, path);
    def.bandwidth_Bps = r.number("bandwidth_Bps", def.bandwidth_Bps, 1e3, 1e16);
    def.latency_s = r.number("latency_s", def.latency_s, 0, 10);
    r.finish();
    return def;
}

gemm_efficiency_spec parse_curve(const json& obj, const std::string& path, gemm_efficiency_spec e) {
    field_reader r(obj, path);
    e.max = r.number("max", e.max, 0.01, 1);
    e.half_flops = r.number("half_flops", e.half_flops, 0, 1e18);
    e.fitted = true;
    r.finish();
    return e;
}

// {"bf16": {max, half_flops}, "fp8": {...}, "attention": {max, half_keys}, call_overhead_s, in_step,
// source} (gemm_rate.hpp); a flat max / half_flops (the form of earlier versions) sets both curves.
gemm_rates parse_gemm_rates(const json& obj, const std::string& path) {
    gemm_rates g;
    field_reader r(obj, path);
    r.text("source", "");
    if (const json* b = r.object("bf16")) g.bf16 = parse_curve(*b, path + ".bf16", g.bf16);
    g.fp8.max = 0;  // no FP8 curve: FP8 calls use the 16-bit max (gemm_curve_of)
    if (const json* f = r.object("fp8")) g.fp8 = parse_curve(*f, path + ".fp8", g.bf16);
    if (r.has("max") || r.has("half_flops")) {
        gemm_efficiency_spec flat = g.bf16;
        flat.max = r.number("max", flat.max, 0.01, 1);
        flat.half_flops = r.number("half_flops", flat.half_flops, 0, 1e18);
        flat.fitted = true;
        g.bf16 = g.fp8 = flat;
    }
    g.call_overhead_s = r.number("call_overhead_s", g.call_overhead_s, 0, 1);
    g.in_step = r.number("in_step", g.in_step, 0.01, 1);
    if (const json* a = r.object("attention")) {
        field_reader ar(*a, path + ".attention");
        g.attention.max = ar.number("max", g.attention.max, 0.01, 1);
        g.attention.half_keys = ar.number("half_keys", g.attention.half_keys, 0, 1e9);
        ar.finish();
    }
    r.finish();
    return g;
}

gpu_spec parse_gpu(const json& part, const std::string& path) {
    const json obj = resolve_part(part, path, gpu_preset);
    field_reader r(obj, path);
    gpu_spec g;
    r.text("source", "");
    g.name = r.text("name", "custom-gpu");
    g.hbm_bytes = r.number("hbm_bytes", 80.0 * (1ull << 30), 1e6, 1e15);
    g.hbm_bandwidth_Bps = r.number("hbm_bandwidth_Bps", 2e12, 1e6, 1e16);
    g.sms = r.integer("sms", g.sms, 1, 1 << 16);
    g.mx_scaling = r.boolean("mx_scaling", g.mx_scaling);
    if (const json* f = r.object("flops")) {
        field_reader fr(*f, path + ".flops");
        g.flops_bf16 = fr.number("bf16", 312e12, 1e6, 1e18);
        g.flops_fp16 = fr.number("fp16", g.flops_bf16, 1e6, 1e18);
        g.flops_fp32 = fr.number("fp32", g.flops_bf16 / 16, 1e6, 1e18);
        g.flops_tf32 = fr.number("tf32", g.flops_bf16 / 2, 1e6, 1e18);
        g.flops_fp8 = fr.number("fp8", 0, 0, 1e18);
        fr.finish();
    } else {
        g.flops_bf16 = g.flops_fp16 = 312e12;
        g.flops_fp32 = 19.5e12;
        g.flops_tf32 = 156e12;
    }
    if (const json* e = r.object("gemm_efficiency")) g.gemm = parse_gemm_rates(*e, path + ".gemm_efficiency");
    r.finish();
    return g;
}

// Replace the datasheet figures by the profile's measured ones where the profile has them
// (figures_from_profile, calibrated_figures.hpp, is the one place that decides which).
void apply_calibration(cluster_spec& c, calibration_profile p) {
    const calibrated_figures f = figures_from_profile(p);
    if (f.intra_node) c.intra_node = {f.intra_node->bandwidth_Bps, f.intra_node->latency_s};
    if (f.inter_node) c.inter_node = {f.inter_node->bandwidth_Bps, f.inter_node->latency_s};
    if (f.hbm_bandwidth_Bps) c.gpu.hbm_bandwidth_Bps = *f.hbm_bandwidth_Bps;
    if (f.host_bandwidth_Bps) c.host.bandwidth_Bps = *f.host_bandwidth_Bps;
    c.gpu.gemm_curves = p.gemm.curves;  // the compute model's GEMM efficiency (compute.hpp)
    c.source = p.source();
    c.profile = std::move(p);
}

// A profile loaded before by name (profile_store.hpp); the CLI loads a file path under its name.
const calibration_profile& loaded_profile(const std::string& name) {
    if (const calibration_profile* p = stored_profile(name)) return *p;
    throw input_error("cluster.calibration", msg("scenario.profile_not_loaded", {{"name", utf8_excerpt(name, 80)}}));
}

std::string part_source(const json& part) {
    if (part.is_string()) return "preset: " + part.get<std::string>();
    auto it = part.is_object() ? part.find("preset") : part.end();
    return it != part.end() && it->is_string() ? "preset: " + it->get<std::string>() : "custom";
}

cluster_spec parse_cluster(const json& part) {
    const json obj = resolve_part(part, "cluster", cluster_preset);
    field_reader r(obj, "cluster");
    cluster_spec c;
    r.text("source", "");
    c.name = r.text("name", "custom");
    const json* g = r.raw("gpu");
    c.gpu = parse_gpu(g ? *g : json("a100-sxm4-80gb"), "cluster.gpu");
    c.gpus_per_node = r.integer("gpus_per_node", 8, 1, 1024);
    c.nodes = r.integer("nodes", 0, 0, 1 << 20);
    c.intra_node = parse_link(r.object("intra_node"), "cluster.intra_node", {300e9, 3e-6});
    c.inter_node = parse_link(r.object("inter_node"), "cluster.inter_node", {25e9, 6e-6});
    c.host = parse_link(r.object("host"), "cluster.host", {32e9, 10e-6});
    c.host_memory_bandwidth_Bps = r.number("host_memory_bandwidth_Bps", c.host_memory_bandwidth_Bps, 1e3, 1e16);
    c.gpu_speed_cv = r.number("gpu_speed_cv", c.gpu_speed_cv, 0, 0.5);
    c.source = part_source(part);
    const json* cal = r.raw("calibration");
    r.finish();
    if (cal && cal->is_string()) {
        c.calibration = *cal;
        apply_calibration(c, loaded_profile(cal->get<std::string>()));
    } else if (cal) {
        c.calibration = *cal;
        apply_calibration(c, parse_calibration(*cal, "cluster.calibration"));
    }
    return c;
}

}  // namespace

// Defined in scenario_training.cpp.
parallel_spec parse_parallel(const json& part);
training_spec parse_training(const json& part, const parallel_spec& p);
void check_cross_rules(scenario& s);

scenario parse_scenario(const json& doc) {
    field_reader r(doc, "");
    const std::string schema = r.text("schema", "tslab/scenario@1");
    if (schema != "tslab/scenario@1") throw input_error("schema", msg("scenario.schema_unsupported", {{"schema", schema}}));
    scenario s;
    const json empty = json::object();
    const json* m = r.raw("model");
    const json* c = r.raw("cluster");
    const json* p = r.raw("parallel");
    const json* t = r.raw("training");
    r.finish();
    s.model_input = m ? *m : json(default_model_preset);
    s.cluster_input = c ? *c : json(default_cluster_preset);
    s.model = parse_model(s.model_input);
    s.cluster = parse_cluster(s.cluster_input);
    if (s.cluster_input.is_object()) s.cluster_input.erase("calibration");
    s.parallel = parse_parallel(p ? *p : empty);
    s.training = parse_training(t ? *t : empty, s.parallel);
    check_cross_rules(s);
    return s;
}

scenario parse_scenario_text(const std::string& text) { return parse_scenario(parse_json(text)); }

double gpu_spec::peak_flops(dtype t) const {
    switch (t) {
        case dtype::fp32: return flops_tf32 > 0 ? flops_tf32 : flops_fp32;
        case dtype::fp16: return flops_fp16;
        case dtype::fp8: return flops_fp8 > 0 ? flops_fp8 : flops_bf16;
        case dtype::bf16:
        case dtype::none: return flops_bf16;
    }
    return flops_bf16;
}

const gemm_efficiency_spec& gpu_spec::gemm_curve_of(dtype t) const { return t == dtype::fp8 && gemm.fp8.max > 0 ? gemm.fp8 : gemm.bf16; }

const gemm_curve* gpu_spec::measured_curve(dtype t) const {
    for (const auto& c : gemm_curves)
        if (c.dtype == to_string(t) && c.flops_per_s_max > 0) return &c;
    return nullptr;
}

}  // namespace tslab
