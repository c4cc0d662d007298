// tslab/context@1: the JSON of `tslab context` and the wasm context(): every method's row, the causal
// balance of the scenario's cp group, the sequence lengths the lab offers, and each formula's source.
#include "tslab/context_methods.hpp"

#include "tslab/json_parse.hpp"

namespace tslab {
namespace {

// The sequence lengths the lab's log-scale slider offers: 4K to 1M tokens, powers of two.
json seq_stops() {
    json out = json::array();
    for (std::int64_t s = 4096; s <= 1048576; s *= 2) out.push_back(s);
    return out;
}

json item_json(const context_method_item& m) {
    return json{{"what", m.what},
                {"op", m.op},
                {"link", m.link},
                {"bytes", m.bytes},
                {"wire_bytes", m.wire_bytes},
                {"calls", m.calls},
                {"time_s", m.time_s},
                {"exposed_s", m.exposed_s},
                {"under_attention", m.under_attention}};
}

json row_json(const context_method_row& r) {
    json items = json::array();
    for (const auto& m : r.items) items.push_back(item_json(m));
    return json{{"id", r.id},
                {"label", r.label},
                {"source", r.source},
                {"axis", r.axis},
                {"available", r.available},
                {"active", r.active},
                {"reason", r.reason},
                {"reason_path", r.reason_path},
                {"reason_msg", r.available ? json(nullptr) : message_json(r.reason_msg)},
                {"degree", r.degree},
                {"ulysses", r.ulysses},
                {"ring", r.ring},
                {"items", items},
                {"bytes", r.bytes},
                {"wire_bytes", r.wire_bytes},
                {"time_s", r.time_s},
                {"exposed_s", r.exposed_s},
                {"hidden_s", r.time_s - r.exposed_s},
                {"attention_s", r.attention_s},
                {"step_l7_s", r.step_l7_s},
                {"step_l7_exposed_s", r.step_l7_exposed_s},
                {"step_s", r.step_s},
                {"memory_bytes", r.memory_bytes},
                {"activation_bytes", r.activation_bytes},
                {"capacity_bytes", r.capacity_bytes},
                {"fits", r.fits},
                {"kv_bytes", r.kv_bytes},
                {"kv_formula", r.kv_formula},
                {"kernel_keys", r.kernel_keys},
                {"balance_zigzag", r.balance_zigzag},
                {"balance_contiguous", r.balance_contiguous}};
}

// Per-rank work is listed up to this many ranks (the ratios are given for any cp).
constexpr std::int64_t balance_list_limit = 256;

json balance_json(std::int64_t cp, double seq_len) {
    const causal_balance b = causal_work(cp, seq_len);
    json ranks = json::array();
    if (b.ranks <= balance_list_limit)
        for (std::int64_t i = 0; i < b.ranks; ++i)
            ranks.push_back({{"rank", i},
                             {"chunks", {i, 2 * b.ranks - 1 - i}},
                             {"contiguous", b.contiguous[static_cast<std::size_t>(i)]},
                             {"zigzag", b.zigzag[static_cast<std::size_t>(i)]}});
    return json{
        {"ranks", b.ranks}, {"chunks", 2 * b.ranks}, {"contiguous_ratio", b.contiguous_ratio}, {"zigzag_ratio", b.zigzag_ratio}, {"per_rank", ranks}};
}

// Each formula with its source, as the lab prints it beside the figure (the lab's one place for them).
json context_formulas() {
    return json{{"sp",
                 "SP: AllGather before and ReduceScatter after attention and MLP, b·s·h·e each, on the TP group (Korthikanti et al. arXiv 2205.05198 "
                 "§4.2.2)"},
                {"ulysses",
                 "Ulysses: All-to-All of Q, K, V in and of the output back, forward and backward: 4·N·h/P per rank and layer for MHA (Jacobs et al. "
                 "arXiv 2309.14509 §3.2)"},
                {"ring",
                 "Ring: cp − 1 K/V block passes per layer forward (each b·(s/cp)·2·h_kv·e, under the previous block's kernel), K/V and dK/dV passes "
                 "backward (Liu et al. arXiv 2310.01889 §3)"},
                {"usp", "USP: Ulysses All-to-All inside the fast group, ring passes across it (Fang & Zhao arXiv 2405.07719)"},
                {"allgather",
                 "All-gather CP: K and V of the whole sequence gathered before attention (forward and backward), dK/dV reduce-scattered (Llama 3 "
                 "arXiv 2407.21783 §3.3.2)"},
                {"exposed", "exposed = Σ calls × time per call × (1 − overlap); ring passes: max(0, pass − block kernel) (cp_overlap)"},
                {"zigzag", "zig-zag: 2·cp chunks, rank i holds i and 2·cp − 1 − i; work = c²(2cp − 1) + c(c + 1) for every rank, c = s/(2cp)"},
                {"memory", "memory per rank: the report's ledger (activations ∝ s/cp); K/V held by attention per layer beside it"}};
}

}  // namespace

std::string context_json_text(const std::string& scenario_text) {
    const json doc = parse_json(scenario_text);
    const auto rows = context_methods(doc);
    const scenario s = parse_scenario(doc);
    json methods = json::array();
    for (const auto& r : rows) methods.push_back(row_json(r));
    json out{{"schema", "tslab/context@1"}, {"seq_len", s.training.seq_len}, {"cp", s.parallel.cp}, {"cp_method", to_string(s.parallel.cp_method)},
             {"tp", s.parallel.tp},         {"seq_stops", seq_stops()}};
    out["methods"] = std::move(methods);
    out["balance"] = balance_json(s.parallel.cp, static_cast<double>(s.training.seq_len));
    out["formulas"] = context_formulas();
    return out.dump(2);
}

}  // namespace tslab
