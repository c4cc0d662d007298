// The per-tensor parameter table. GPT rows reproduce Narayanan et al. (arXiv 2104.04473) eq. for P:
// 12 l h² (1 + 13/(12h) + (V+s)/(12 l h)) plus the final LayerNorm's 2h.
#include "tslab/params.hpp"

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

namespace {

using entries = std::vector<tensor_entry>;

void add(entries& out, std::string name, std::int64_t rows, std::int64_t cols, bool tp_split, layer_kind lk = layer_kind::any) {
    tensor_entry e;
    e.name = std::move(name);
    e.rows = rows;
    e.cols = cols;
    e.tp_split = tp_split;
    e.layers = lk;
    out.push_back(e);
}

void add_norm(entries& out, const model_spec& m, const std::string& name, std::int64_t width) {
    add(out, name + ".weight", width, 1, false);
    if (describe(m.norm).bias) add(out, name + ".bias", width, 1, false);
}

void add_attention(entries& out, const model_spec& m) {
    const std::int64_t h = m.hidden, a = m.heads;
    if (m.attention == attention_kind::mla) {
        const auto& x = m.mla;
        const std::int64_t qk = x.qk_nope_head_dim + x.qk_rope_head_dim;
        if (x.q_lora_rank > 0) {
            add(out, "attn.q_down", h, x.q_lora_rank, false);  // replicated over TP (Megatron MLA)
            add_norm(out, m, "attn.q_norm", x.q_lora_rank);
            add(out, "attn.q_up", x.q_lora_rank, a * qk, true);
        } else {
            add(out, "attn.q", h, a * qk, true);
        }
        add(out, "attn.kv_down", h, x.kv_lora_rank + x.qk_rope_head_dim, false);
        add_norm(out, m, "attn.kv_norm", x.kv_lora_rank);
        add(out, "attn.kv_up", x.kv_lora_rank, a * (x.qk_nope_head_dim + x.v_head_dim), true);
        add(out, "attn.out", a * x.v_head_dim, h, true);
        return;
    }
    const std::int64_t q = a * m.head_dim, kv = m.kv_heads * m.head_dim;
    add(out, "attn.qkv", h, q + 2 * kv, true);
    if (m.bias) add(out, "attn.qkv.bias", q + 2 * kv, 1, true);
    add(out, "attn.out", q, h, true);
    if (m.bias) add(out, "attn.out.bias", h, 1, false);  // row-parallel bias is replicated
}

// The MLP of width f; `prefix` distinguishes dense from shared-expert MLPs.
void add_mlp(entries& out, const model_spec& m, const std::string& prefix, std::int64_t f, layer_kind lk, std::int64_t copies = 1) {
    const std::int64_t h = m.hidden;
    const std::int64_t up = m.ffn == ffn_kind::swiglu ? 2 * f : f;  // SwiGLU: gate and up
    const std::size_t first = out.size();
    add(out, prefix + ".up", h, up, true, lk);
    add(out, prefix + ".down", f, h, true, lk);
    if (m.bias) {
        add(out, prefix + ".up.bias", up, 1, true, lk);
        add(out, prefix + ".down.bias", h, 1, false, lk);
    }
    for (std::size_t i = first; i < out.size(); ++i) out[i].copies = copies;
}

void add_moe(entries& out, const model_spec& m) {
    const auto& e = m.moe;
    add(out, "moe.router", e.experts, m.hidden, false, layer_kind::moe);
    const std::size_t first = out.size();
    add_mlp(out, m, "moe.experts", e.expert_ffn_hidden, layer_kind::moe, e.experts);
    for (std::size_t i = first; i < out.size(); ++i) out[i].expert = true;
    if (e.shared_experts > 0) add_mlp(out, m, "moe.shared", e.expert_ffn_hidden * e.shared_experts, layer_kind::moe);
}

// The model fields whose product sizes a tensor, for errors (by the tensor's name prefix).
const char* fields_of(const std::string& name) {
    static const std::pair<const char*, const char*> table[] = {
        {"embedding.word", "model.vocab × model.hidden"},
        {"embedding.position", "model.position_embeddings × model.hidden"},
        {"attn.q", "model.hidden, model.heads, model.head_dim, model.kv_heads or model.mla ranks"},
        {"attn.kv", "model.mla.kv_lora_rank × model.heads × head dims"},
        {"attn.out", "model.heads × model.head_dim × model.hidden"},
        {"mlp", "model.hidden × model.ffn_hidden"},
        {"moe.router", "model.moe.experts × model.hidden"},
        {"moe.experts", "model.moe.experts × model.hidden × model.moe.expert_ffn_hidden"},
        {"moe.shared", "model.moe.shared_experts × model.moe.expert_ffn_hidden × model.hidden"},
        {"head", "model.hidden × model.vocab"}};
    for (const auto& [prefix, fields] : table)
        if (name.rfind(prefix, 0) == 0) return fields;
    return "model.hidden";
}

// Parameters are counted in int64 and memory in doubles cast to int64: both stay exact below this.
constexpr long double max_params = 1e15L;

// Every product of user sizes, in long double first: a model beyond max_params is an input error
// naming the fields of its largest tensor, before any int64 product can overflow.
void check_size(const model_spec& m, const entries& list) {
    long double total = 0, largest = 0;
    const tensor_entry* worst = nullptr;
    for (const auto& t : list) {
        const long double per = static_cast<long double>(t.rows) * t.cols * t.copies;
        const long double n = t.site == tensor_site::layer ? per * m.layers : per;
        total += n;
        if (n > largest) largest = n, worst = &t;
    }
    if (total <= max_params) return;
    const bool per_layer = worst->site == tensor_site::layer;  // its size is counted once per layer
    throw input_error("model",
                      msg(per_layer ? "scenario.params_out_of_range_layers" : "scenario.params_out_of_range",
                          {{"total", fmt::format("{:.3g}", static_cast<double>(total))},
                           {"limit", fmt::format("{:.0e}", static_cast<double>(max_params))},
                           {"tensor", worst->name},
                           {"fields", fields_of(worst->name)},
                           {"largest", fmt::format("{:.3g}", static_cast<double>(largest))}}));
}

}  // namespace

std::vector<tensor_entry> tensor_list(const model_spec& m) {
    entries out;
    add(out, "embedding.word", m.vocab, m.hidden, true);  // vocab-parallel
    out.back().site = tensor_site::embedding;
    if (m.position_embeddings > 0) {
        add(out, "embedding.position", m.position_embeddings, m.hidden, false);
        out.back().site = tensor_site::embedding;
    }
    add_norm(out, m, "input_norm", m.hidden);
    add_attention(out, m);
    add_norm(out, m, "post_attn_norm", m.hidden);
    add_mlp(out, m, "mlp", m.ffn_hidden, m.is_moe() ? layer_kind::dense : layer_kind::any);
    if (m.is_moe()) add_moe(out, m);
    const std::size_t final_at = out.size();
    add_norm(out, m, "final_norm", m.hidden);
    for (std::size_t i = final_at; i < out.size(); ++i) out[i].site = tensor_site::final_norm;
    if (!m.tied_embeddings) {
        add(out, "head", m.hidden, m.vocab, true);
        out.back().site = tensor_site::head;
    }
    check_size(m, out);
    return out;
}

std::int64_t moe_layer_count(const model_spec& m) { return m.is_moe() ? m.layers - m.moe.dense_layers : 0; }

param_counts count_params(const model_spec& m) {
    param_counts c;
    const std::int64_t moe_layers = moe_layer_count(m), dense_layers = m.layers - moe_layers;
    std::int64_t expert_active = 0;
    for (const auto& t : tensor_list(m)) {
        const std::int64_t n = t.elements();
        if (t.site == tensor_site::embedding) c.embedding += n;
        if (t.site == tensor_site::head || t.site == tensor_site::final_norm) c.head += n;
        if (t.site != tensor_site::layer) continue;
        if (t.layers != layer_kind::moe) c.per_dense_layer += n;
        if (t.layers != layer_kind::dense) c.per_moe_layer += n;
        if (t.expert) {
            c.expert_total += n * moe_layers;
            expert_active += n / t.copies * m.moe.top_k * moe_layers;
        }
    }
    c.total = c.embedding + c.head + c.per_dense_layer * dense_layers + c.per_moe_layer * moe_layers;
    c.active = c.total - c.expert_total + expert_active;
    return c;
}

}  // namespace tslab
