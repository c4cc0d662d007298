// presets_json()'s "vocabulary": every descriptor row (schedule_table.hpp, vocabulary.hpp) and the
// scenario defaults, generated from the rows and from the member initializers the parser reads.
#include "tslab/collective_ops.hpp"
#include "tslab/plan_limits.hpp"
#include "tslab/presets.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

namespace {

const char* placement_name(stage_placement p) {
    switch (p) {
        case stage_placement::linear: return "linear";
        case stage_placement::v_shape: return "v_shape";
        case stage_placement::dual: return "dual";
    }
    return "";
}

const char* chunks_name(chunks_rule c) {
    switch (c) {
        case chunks_rule::one: return "1";
        case chunks_rule::two: return "2";
        case chunks_rule::vpp: return "vpp";
    }
    return "";
}

json schedule_json(const schedule_desc& d) {
    return json{{"name", d.name},
                {"label", d.label},
                {"placement", placement_name(d.placement)},
                {"chunks_per_rank", chunks_name(d.chunks)},
                {"uses_vpp", d.chunks == chunks_rule::vpp},
                {"param_copies", d.param_copies},
                {"split_backward", d.split_backward},
                {"ep_overlap", d.ep_overlap},
                {"min_pp", d.min_pp},
                {"pp_multiple", d.pp_multiple},
                {"microbatch_rule", microbatch_rule(d)},
                {"bubble_formula", d.bubble_formula},
                {"inflight_formula", d.inflight_formula},
                {"source", d.source}};
}

json recipe_json(const recipe_desc& d) {
    return json{{"name", d.name},
                {"label", d.label},
                {"params", to_string(d.params)},
                {"grads", to_string(d.grads)},
                {"master", to_string(d.master)},
                {"optimizer", to_string(d.optimizer)},
                {"activations", to_string(d.activations)},
                {"gemm", to_string(d.gemm)},
                {"source", d.source}};
}

json optimizer_json(const optimizer_desc& d) {
    // Bytes at an fp32 optimizer dtype on a dense matrix; the recipe's optimizer dtype scales it.
    return json{{"name", d.name},
                {"label", d.label},
                {"moments", d.moments},
                {"factored", d.factored},
                {"state_bytes_per_param", 4 * d.moments},
                {"state_rule", d.state_rule},
                {"source", d.source}};
}

json precision_fields_json() {
    json out = json::array();
    for (const auto& f : precision_field_rows) {
        json allowed = json::array();
        for (const auto& d : dtype_rows)
            if (f.allowed[static_cast<std::size_t>(d.kind)]) allowed.push_back(d.name);
        out.push_back({{"name", f.name}, {"dtypes", std::move(allowed)}});
    }
    return out;
}

template <class Rows, class F>
json rows_json(const Rows& rows, F&& one) {
    json out = json::array();
    for (const auto& r : rows) out.push_back(one(r));
    return out;
}

json defaults_json();

}  // namespace

json vocabulary_json() {
    auto label_row = [](const auto& d) { return json{{"name", d.name}, {"label", d.label}, {"source", d.source}}; };
    return json{{"schedules", rows_json(schedule_rows, schedule_json)},
                {"optimizers", rows_json(optimizer_rows, optimizer_json)},
                {"precision_recipes", rows_json(recipe_rows, recipe_json)},
                {"precision_fields", precision_fields_json()},
                // whole_layer: the mode that keeps only each layer's input (what saves the most activations).
                {"recompute_modes",
                 rows_json(recompute_rows,
                           [&](const recompute_desc& d) {
                               json j = label_row(d);
                               j["whole_layer"] = d.kind == recompute_kind::full;
                               return j;
                           })},
                {"dtypes",
                 rows_json(dtype_rows,
                           [](const dtype_desc& d) {
                               return json{{"name", d.name}, {"bytes", d.bytes}};
                           })},
                {"cp_methods", rows_json(cp_method_rows, label_row)},
                {"attention_types", rows_json(attention_rows, label_row)},
                {"ffn_types", rows_json(ffn_rows, label_row)},
                {"norms", rows_json(norm_rows, label_row)},
                {"routing_kinds",
                 rows_json(routing_rows,
                           [&](const routing_desc& d) {
                               json j = label_row(d);
                               j["reads"] = d.reads;
                               return j;
                           })},
                {"scaling_recipes",
                 rows_json(scaling_rows,
                           [](const scaling_desc& d) {
                               return json{{"name", d.name}, {"label", d.label}, {"source", d.source}};
                           })},
                {"zero_stages",
                 rows_json(zero_stage_rows,
                           [](const zero_stage_desc& d) {
                               return json{{"stage", d.stage}, {"label", d.label}, {"shards", d.shards}, {"source", d.source}};
                           })},
                {"collectives",
                 rows_json(collective_table(),
                           [](const collective_desc& d) {
                               return json{{"name", d.name}};
                           })},
                {"mesh_axes",
                 rows_json(mesh_axis_rows,
                           [](const mesh_axis_desc& d) {
                               return json{{"name", d.name}, {"label", d.label}};
                           })},
                {"recommended_order", recommended_order},
                // Limits the lab's controls check as the reader types (the core's errors stay the truth).
                {"limits", json{{"plan_gpus", max_plan_gpus}}},
                {"defaults", defaults_json()}};
}

namespace {

json training_defaults(const training_spec& t) {
    const auto& r = t.reliability;
    return json{
        {"seq_len", t.seq_len},
        {"micro_batch", t.micro_batch},
        {"recompute", to_string(t.recompute)},
        {"flash_attention", t.flash_attention},
        {"precision", t.precision.recipe},
        {"optimizer", to_string(t.optimizer)},
        {"schedule", to_string(t.schedule)},
        {"offload", {{"optimizer", t.offload.optimizer}, {"activations", t.offload.activations}, {"delayed_update", t.offload.delayed_update}}},
        {"overlap", {{"dp", t.overlap.dp}, {"tp", t.overlap.tp}, {"pp", t.overlap.pp}, {"ep", t.overlap.ep}, {"cp", t.overlap.cp}}},
        {"moe",
         {{"imbalance", t.moe.imbalance},
          {"redundant_experts", t.moe.redundant_experts},
          {"comm_sms", t.moe.comm_sms},
          {"routing", {{"kind", t.moe.routing.kind}, {"skew", t.moe.routing.skew}}},
          {"node_limit", t.moe.node_limit}}},
        {"mtp_depth", t.mtp_depth},
        {"reliability",
         {{"gpu_failure_rate_per_hour", r.gpu_failure_rate_per_hour},
          {"job_mtbf_s", r.job_mtbf_s},
          {"checkpoint_storage_Bps", r.checkpoint_storage_Bps},
          {"restart_s", r.restart_s},
          {"checkpoint_interval_s", r.checkpoint_interval_s},
          {"async_checkpoint", r.async_checkpoint}}}};
}

json defaults_json() {
    const parallel_spec p;
    return json{{"model", default_model_preset},
                {"cluster", default_cluster_preset},
                {"training", training_defaults(training_spec{})},
                {"parallel",
                 {{"dp", p.dp},
                  {"tp", p.tp},
                  {"pp", p.pp},
                  {"vpp", p.vpp},
                  {"ep", p.ep},
                  {"etp", p.etp},
                  {"cp", p.cp},
                  {"cp_method", to_string(p.cp_method)},
                  {"sp", p.sp},
                  {"zero", p.zero},
                  {"order", p.order}}}};
}

}  // namespace

}  // namespace tslab
