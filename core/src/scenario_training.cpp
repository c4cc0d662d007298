// Parsing the parallel plan and the training recipe, and the rules that tie the parts together.
#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/global_batch.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

namespace {

std::vector<std::string> allowed_dtypes(const precision_field_desc& f) {
    std::vector<std::string> out;
    for (const auto& d : dtype_rows)
        if (f.allowed[static_cast<std::size_t>(d.kind)]) out.emplace_back(d.name);
    return out;
}

// A named recipe's dtypes (vocabulary.hpp recipe_rows).
precision_spec recipe(const recipe_desc& d) {
    precision_spec p;
    p.recipe = d.name;
    p.params = d.params, p.grads = d.grads, p.master = d.master;
    p.optimizer = d.optimizer, p.activations = d.activations, p.gemm = d.gemm;
    return p;
}

precision_spec parse_precision(const json* v) {
    if (!v) return recipe(*find_row(recipe_rows, precision_spec{}.recipe));
    if (v->is_string()) {
        json wrap = {{"recipe", *v}};
        return parse_precision(&wrap);
    }
    field_reader r(*v, "training.precision");
    static const std::vector<std::string> recipes = row_names(recipe_rows);
    precision_spec p = recipe(*find_row(recipe_rows, r.choice("recipe", precision_spec{}.recipe, recipes)));
    dtype* fields[] = {&p.params, &p.grads, &p.master, &p.optimizer, &p.activations, &p.gemm, &p.reduce};
    static_assert(sizeof(fields) / sizeof(fields[0]) == precision_field_rows.size(), "one precision field row per precision_spec dtype");
    for (std::size_t i = 0; i < precision_field_rows.size(); ++i) {
        const auto& f = precision_field_rows[i];
        *fields[i] = find_row(dtype_rows, r.choice(f.name, to_string(*fields[i]), allowed_dtypes(f)))->kind;
    }
    r.finish();
    if (p.params == dtype::fp32) p.master = dtype::none;  // the params are the master copy
    return p;
}

overlap_spec parse_overlap(const json* v) {
    overlap_spec o;
    if (!v) return o;
    field_reader r(*v, "training.overlap");
    o.dp = r.number("dp", o.dp, 0, 1);
    o.tp = r.number("tp", o.tp, 0, 1);
    o.pp = r.number("pp", o.pp, 0, 1);
    o.ep = r.number("ep", o.ep, 0, 1);
    o.cp = r.number("cp", o.cp, 0, 1);
    o.grad_reduce = r.boolean("grad_reduce", o.grad_reduce);
    o.param_gather = r.boolean("param_gather", o.param_gather);
    o.bucket_elems = r.number("bucket_elems", o.bucket_elems, 0, 1e13);
    o.tp_comm = r.boolean("tp_comm", o.tp_comm);
    r.finish();
    if (o.tp_comm && o.tp > 0) throw input_error(r.path_of("tp"), msg("scenario.tp_overlap_with_tp_comm"));
    // The bucket model sets the DP overlap itself; a fixed fraction on top would count it twice.
    if (o.dp > 0 && (o.grad_reduce || o.param_gather)) throw input_error(r.path_of("dp"), msg("scenario.dp_overlap_with_buckets"));
    if (o.bucket_elems > 0 && !o.grad_reduce && !o.param_gather)
        throw input_error(r.path_of("bucket_elems"), msg("scenario.bucket_elems_without_buckets"));
    return o;
}

offload_spec parse_offload(const json* v) {
    offload_spec o;
    if (!v) return o;
    field_reader r(*v, "training.offload");
    o.optimizer = r.number("optimizer", o.optimizer, 0, 1);
    o.activations = r.number("activations", o.activations, 0, 1);
    o.delayed_update = r.boolean("delayed_update", o.delayed_update);
    r.finish();
    if (o.delayed_update && o.optimizer <= 0) throw input_error(r.path_of("delayed_update"), msg("scenario.delayed_update_without_offload"));
    return o;
}

// training.moe.routing: kind, skew (Zipf exponent), histogram (one non-negative load per expert;
// its length is checked against model.moe.experts with the other cross-field rules).
routing_spec parse_routing(const json* v) {
    routing_spec o;
    if (!v) return o;
    field_reader r(*v, "training.moe.routing");
    o.kind = r.choice("kind", o.kind, row_names(routing_rows));
    o.skew = r.number("skew", o.skew, 0, 4);
    if (const json* h = r.raw("histogram")) {
        if (!h->is_array() || h->empty()) throw input_error("training.moe.routing.histogram", msg("scenario.histogram_not_array"));
        for (std::size_t i = 0; i < h->size(); ++i) {
            const json& x = (*h)[i];
            const std::string at = fmt::format("training.moe.routing.histogram[{}]", i);
            if (!x.is_number()) throw input_error(at, msg("scenario.histogram_load_not_number"));
            const double d = x.get<double>();
            if (!(d >= 0 && d < 1e18)) throw input_error(at, msg("scenario.histogram_load_negative", {{"load", fmt::format("{:g}", d)}}));
            o.histogram.push_back(d);
        }
    }
    r.finish();
    if (o.kind == "histogram" && o.histogram.empty()) throw input_error("training.moe.routing.histogram", msg("scenario.histogram_needs_loads"));
    if (o.kind != "histogram" && !o.histogram.empty())
        throw input_error("training.moe.routing.histogram", msg("scenario.histogram_wrong_kind", {{"kind", o.kind}}));
    if (o.kind == "histogram") {
        double sum = 0;
        for (double x : o.histogram) sum += x;
        if (sum <= 0) throw input_error("training.moe.routing.histogram", msg("scenario.histogram_all_zero"));
    }
    return o;
}

moe_training_spec parse_moe_training(const json* v) {
    moe_training_spec m;
    if (!v) return m;
    field_reader r(*v, "training.moe");
    m.imbalance = r.number("imbalance", m.imbalance, 0, 1e4);
    if (m.imbalance > 0 && m.imbalance < 1)
        throw input_error("training.moe.imbalance", msg("scenario.imbalance_below_one", {{"imbalance", fmt::format("{:g}", m.imbalance)}}));
    m.redundant_experts = r.integer("redundant_experts", m.redundant_experts, 0, 1 << 16);
    m.comm_sms = r.integer("comm_sms", m.comm_sms, 0, 1 << 16);
    m.routing = parse_routing(r.object("routing"));
    m.node_limit = r.integer("node_limit", m.node_limit, 0, 1 << 16);
    m.a2a_overlap = r.boolean("a2a_overlap", m.a2a_overlap);
    r.finish();
    if (m.imbalance > 0 && m.routing.kind != "uniform")
        throw input_error("training.moe.imbalance", msg("scenario.imbalance_with_routing", {{"kind", m.routing.kind}}));
    return m;
}

reliability_spec parse_reliability(const json* v) {
    reliability_spec o;
    if (!v) return o;
    field_reader r(*v, "training.reliability");
    const bool rate = r.has("gpu_failure_rate_per_hour"), mtbf = r.has("job_mtbf_s");
    if (rate && mtbf) throw input_error("training.reliability.job_mtbf_s", msg("scenario.mtbf_both"));
    o.gpu_failure_rate_per_hour = r.number("gpu_failure_rate_per_hour", o.gpu_failure_rate_per_hour, 1e-12, 1);
    o.job_mtbf_s = r.number("job_mtbf_s", o.job_mtbf_s, 1, 1e12);
    o.checkpoint_storage_Bps = r.number("checkpoint_storage_Bps", o.checkpoint_storage_Bps, 1e6, 1e16);
    o.restart_s = r.number("restart_s", o.restart_s, 0, 1e7);
    o.checkpoint_interval_s = r.number("checkpoint_interval_s", o.checkpoint_interval_s, 0, 1e9);
    o.async_checkpoint = r.boolean("async_checkpoint", o.async_checkpoint);
    r.finish();
    return o;
}

}  // namespace

// Every default below is the member initializer of parallel_spec / training_spec (scenario.hpp).
parallel_spec parse_parallel(const json& part) {
    field_reader r(part, "parallel");
    parallel_spec p;
    p.dp = r.integer("dp", p.dp, 1, max_parallel_degree);
    p.tp = r.integer("tp", p.tp, 1, 4096);
    p.pp = r.integer("pp", p.pp, 1, 4096);
    p.vpp = r.integer("vpp", p.vpp, 1, 1024);
    p.ep = r.integer("ep", p.ep, 1, max_parallel_degree);
    p.etp = r.integer("etp", p.etp, 1, 4096);
    p.cp = r.integer("cp", p.cp, 1, 4096);
    static const std::vector<std::string> cp_methods = row_names(cp_method_rows);
    p.cp_method = find_row(cp_method_rows, r.choice("cp_method", to_string(p.cp_method), cp_methods))->kind;
    p.sp = r.boolean("sp", p.sp);
    p.zero = static_cast<int>(r.integer("zero", p.zero, 0, 3));
    p.order = r.text("order", p.order);
    r.finish();
    if (p.world() > max_parallel_degree)
        throw input_error(
            "parallel", msg("input.world_over_limit", {{"world", fmt::format("{}", p.world())}, {"limit", fmt::format("{}", max_parallel_degree)}}));
    return p;
}

training_spec parse_training(const json& part, const parallel_spec& p) {
    field_reader r(part, "training");
    training_spec t;
    t.seq_len = r.integer("seq_len", t.seq_len, 1, 100'000'000);
    t.micro_batch = r.integer("micro_batch", t.micro_batch, 1, 1'000'000);
    // Default: the auto rule (global_batch.hpp), shared with the planner.
    t.global_batch_given = part.is_object() && part.contains("global_batch");
    t.schedule = *schedule_from_name(r.choice("schedule", to_string(t.schedule), schedule_names()));
    t.global_batch = r.integer("global_batch", auto_global_batch(p.world(), t.seq_len, t.micro_batch * p.dp, t.schedule, p.pp), 1, 1'000'000'000);
    static const std::vector<std::string> recomputes = row_names(recompute_rows), optimizers = row_names(optimizer_rows);
    t.recompute = find_row(recompute_rows, r.choice("recompute", to_string(t.recompute), recomputes))->kind;
    t.flash_attention = r.boolean("flash_attention", t.flash_attention);
    t.precision = parse_precision(r.raw("precision"));
    t.optimizer = find_row(optimizer_rows, r.choice("optimizer", to_string(t.optimizer), optimizers))->kind;
    t.offload = parse_offload(r.object("offload"));
    t.overlap = parse_overlap(r.object("overlap"));
    t.moe = parse_moe_training(r.object("moe"));
    t.reliability = parse_reliability(r.object("reliability"));
    t.mtp_depth = r.integer("mtp_depth", t.mtp_depth, 0, 16);
    r.finish();
    return t;
}

}  // namespace tslab
