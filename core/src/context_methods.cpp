// L7 methods side by side: each row is the scenario re-read with one method (or SP alone at cp = 1)
// and its report's own figures; the zig-zag causal balance. Nothing here recomputes a volume or a
// time: bytes and times are the comm inventory's (context.cpp + comm_inventory.cpp + cp_overlap.cpp).
#include "tslab/context_methods.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tslab/collective_ops.hpp"
#include "tslab/context.hpp"
#include "tslab/errors.hpp"
#include "tslab/memory.hpp"
#include "tslab/report.hpp"
#include "tslab/vocabulary.hpp"

namespace tslab {

namespace {

// The document with parallel.<key> set (a preset name for "parallel" becomes {"preset": name}).
json with_parallel(json doc, const json& fields) {
    json& p = doc["parallel"];
    if (p.is_string()) p = json{{"preset", p}};
    if (!p.is_object()) p = json::object();
    for (const auto& [k, v] : fields.items()) p[k] = v;
    // A variant with another world size keeps the cluster's kind, not a node count sized for the scenario's world.
    if (doc.contains("cluster") && doc["cluster"].is_object() && doc["cluster"].contains("nodes")) doc["cluster"]["nodes"] = 0;
    return doc;
}

// Items of the row's exchanges, per layer and micro-batch: the inventory's calls per step divided by
// the micro-batches and the layers of the busiest stage (comm_inventory.cpp's own multipliers).
void take_items(context_method_row& row, const report& r) {
    const double per = static_cast<double>(r.microbatches * r.compute.stage_layers);
    for (const auto& it : r.comm.items) {
        const bool sp = it.axis == "tp" && it.what.rfind("sp ", 0) == 0;
        if (it.per != "layer/micro-batch" || !(row.axis == "cp" ? it.axis == "cp" : sp)) continue;
        context_method_item m;
        m.what = it.what, m.op = describe(it.call.op).name, m.link = to_string(it.call.link);
        m.bytes = it.call.bytes, m.wire_bytes = it.call.wire_bytes, m.calls = per > 0 ? it.count / per : 0;
        m.time_s = m.calls * it.call.time_s, m.exposed_s = m.calls * it.call.exposed_s(it.overlap);
        m.under_attention = it.ring_block;
        row.bytes += m.calls * m.bytes, row.wire_bytes += m.calls * m.wire_bytes;
        row.time_s += m.time_s, row.exposed_s += m.exposed_s;
        row.items.push_back(std::move(m));
    }
}

void take_report(context_method_row& row, const scenario& s, const report& r) {
    take_items(row, r);
    row.attention_s = r.compute.attention_core_fwd_s + r.compute.attention_core_bwd_s;
    row.step_l7_s = r.step.ledgers[6].time_s, row.step_l7_exposed_s = r.step.ledgers[6].exposed_s, row.step_s = r.step.time_s;
    row.memory_bytes = r.memory.total_bytes, row.activation_bytes = activation_bytes_of(r.memory);
    row.capacity_bytes = r.memory.capacity_bytes, row.fits = r.memory.fits;
    const kv_working_set kv = attention_kv_working_set(s);
    row.kv_bytes = kv.bytes, row.kv_formula = kv.formula;
    row.kernel_keys = attention_kernel_keys(s);
    const context_report c = context_traffic(s);
    row.ulysses = c.ulysses, row.ring = c.ring;
    // The sequence split the causal mask sees: the ring part, or the whole cp group for all-gather CP;
    // Ulysses splits heads, so every rank walks all queries of its heads.
    const cp_method_desc* method = find_row(cp_method_rows, row.id);
    const bool gather = row.axis == "cp" && method && method->allgather;
    const causal_balance b = causal_work(gather ? s.parallel.cp : c.ring, static_cast<double>(s.training.seq_len));
    row.balance_zigzag = b.zigzag_ratio, row.balance_contiguous = b.contiguous_ratio;
}

// The row for `doc`: its report, or unavailable with the rule that fails.
context_method_row evaluate(context_method_row row, const json& doc) {
    try {
        const scenario s = parse_scenario(doc);
        row.degree = row.axis == "cp" ? s.parallel.cp : s.parallel.tp;
        take_report(row, s, build_report(s, 0));
    } catch (const input_error& e) {
        row.available = false;
        row.reason = e.what(), row.reason_path = e.path(), row.reason_msg = e.msg();
    }
    return row;
}

context_method_row row_of(const char* id, const char* label, const char* source, const char* axis) {
    context_method_row r;
    r.id = id, r.label = label, r.source = source, r.axis = axis;
    return r;
}

}  // namespace

causal_balance causal_work(std::int64_t ranks, double seq_len) {
    causal_balance b;
    b.ranks = std::max<std::int64_t>(1, ranks);
    const double n = static_cast<double>(b.ranks), c = seq_len / n, z = seq_len / (2 * n);
    auto pairs = [](double a, double len) { return len * a + len * (len + 1) / 2; };  // queries a .. a+len−1, keys ≤ query
    double sum_c = 0, sum_z = 0, max_c = 0, max_z = 0;
    for (std::int64_t i = 0; i < b.ranks; ++i) {
        const double x = static_cast<double>(i);
        b.contiguous.push_back(pairs(x * c, c));
        b.zigzag.push_back(pairs(x * z, z) + pairs((2 * n - 1 - x) * z, z));
        sum_c += b.contiguous.back(), sum_z += b.zigzag.back();
        max_c = std::max(max_c, b.contiguous.back()), max_z = std::max(max_z, b.zigzag.back());
    }
    b.contiguous_ratio = sum_c > 0 ? max_c / (sum_c / n) : 1;
    b.zigzag_ratio = sum_z > 0 ? max_z / (sum_z / n) : 1;
    return b;
}

std::vector<context_method_row> context_methods(const json& doc) {
    const scenario base = parse_scenario(doc);  // the scenario itself must be valid: its errors are the reader's
    std::vector<context_method_row> rows;
    context_method_row sp = row_of("sp", "Megatron SP (TP group)", "Korthikanti et al., arXiv 2205.05198 section 4.2.2", "tp");
    sp.active = base.parallel.cp == 1;
    rows.push_back(evaluate(sp, with_parallel(doc, {{"cp", 1}, {"sp", base.parallel.tp > 1}})));
    for (const auto& m : cp_method_rows) {
        context_method_row row = row_of(m.name, m.label, m.source, "cp");
        row.active = base.parallel.cp > 1 && base.parallel.cp_method == m.kind;
        if (base.parallel.cp == 1) {
            row.available = false;
            const input_error why("parallel.cp", msg("context.cp_splits_nothing", {{"method", m.label}}));
            row.reason = why.what(), row.reason_path = why.path(), row.reason_msg = why.msg();
            rows.push_back(std::move(row));
            continue;
        }
        rows.push_back(evaluate(row, with_parallel(doc, {{"cp_method", m.name}})));
    }
    return rows;
}

}  // namespace tslab
