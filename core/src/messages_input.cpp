// English templates of input errors: JSON fields, scenario rules and presets (ARCHITECTURE.md, "Errors").
#include "messages_tables.hpp"

namespace tslab::message_tables {

namespace {
constexpr message_template input_table[] = {
    // Free text without an id yet (still used by callers that have not been worded as messages).
    {"text", "{reason}"},
    // json_fields.cpp: one field of a JSON object. {got} is a JSON type name ("a boolean") or the number given.
    {"input.expected_object", "expected an object, got {got}"},
    {"input.expected_integer", "expected an integer, got {got}"},
    {"input.expected_number", "expected a number, got {got}"},
    {"input.expected_boolean", "expected true or false, got {got}"},
    {"input.expected_string", "expected a string, got {got}"},
    {"input.expected_array", "expected an array, got {got}"},
    {"input.not_finite", "must be a finite number"},
    {"input.out_of_range", "{value} is out of range [{lo}, {hi}]"},
    {"input.unknown_value", "unknown value \"{value}\"; expected one of {allowed}"},
    {"input.unknown_value_near", "unknown value \"{value}\"; expected one of {allowed} (did you mean {near}?)"},
    {"input.unknown_field", "unknown field"},
    {"input.unknown_field_near", "unknown field; did you mean {near}?"},
    // Shared reasons of several readers.
    {"input.missing", "missing"},
    {"input.must_be_string", "must be a string"},
    {"input.must_be_positive_number", "must be a positive number"},
    {"input.must_be_non_empty_array", "must be a non-empty array"},
    {"input.must_be_at_least_one", "must be at least 1"},
    {"input.value_at_least_one", "{value} must be at least 1"},
    {"input.does_not_divide", "{value} does not divide {what} = {n}"},
    {"input.world_over_limit", "dp·tp·pp·cp = {world} GPUs exceeds the limit of {limit}"},
    {"input.not_json", "not JSON: {detail}"},
    // json_parse.cpp: the text itself and the parser's limits.
    {"json.too_many_keys", "more than {limit} fields in one object (the limit is {limit})"},
    {"json.number_out_of_range", "the number {number} is out of range (beyond ±1.8e308)"},
    {"json.malformed", "malformed JSON at byte {byte}: {detail}"},
    {"json.truncated", "truncated JSON at byte {byte}: {detail}"},
    {"json.too_deep", "nested deeper than {limit} levels (the limit is {limit})"},
    {"json.duplicate_key", "given twice"},
    {"json.too_large", "{bytes} bytes of JSON exceed the input limit of {limit} bytes"},
    // presets.cpp: one id per preset kind.
    {"preset.unknown_model", "unknown model preset \"{name}\""},
    {"preset.unknown_model_near", "unknown model preset \"{name}\"; did you mean {near}?"},
    {"preset.unknown_cluster", "unknown cluster preset \"{name}\""},
    {"preset.unknown_cluster_near", "unknown cluster preset \"{name}\"; did you mean {near}?"},
    {"preset.unknown_gpu", "unknown gpu preset \"{name}\""},
    {"preset.unknown_gpu_near", "unknown gpu preset \"{name}\"; did you mean {near}?"},
    // scenario.cpp, scenario_training.cpp, scenario_rules.cpp, params.cpp, report.cpp
    {"scenario.part_not_object", "expected an object or a preset name"},
    {"scenario.preset_not_string", "expected a preset name string"},
    {"scenario.kv_heads_not_mha", "{kv_heads} differs from heads = {heads}, so attention is gqa, not mha"},
    {"scenario.top_k_range", "{top_k} must be between 1 and experts = {experts}"},
    {"scenario.no_moe_layer", "{dense_layers} leaves no MoE layer among {layers} layers"},
    {"scenario.groups_split", "{groups} groups do not split experts = {experts} evenly"},
    {"scenario.topk_groups_small", "{topk_groups} groups of {per_group} experts hold fewer than top_k = {top_k} experts"},
    {"scenario.profile_not_loaded",
     "no profile \"{name}\" is loaded (the tslab CLI reads a file path; in the lab load the profile first, or give the profile object)"},
    {"scenario.schema_unsupported", "\"{schema}\" is not supported; expected tslab/scenario@1"},
    {"scenario.tp_overlap_with_tp_comm", "a fixed TP overlap fraction cannot be combined with tp_comm (the chunked overlap sets it); set tp to 0"},
    {"scenario.dp_overlap_with_buckets",
     "a fixed DP overlap fraction cannot be combined with grad_reduce or param_gather (the bucket model sets the DP overlap); set dp to 0"},
    {"scenario.bucket_elems_without_buckets", "applies only with grad_reduce or param_gather (one bucket otherwise)"},
    {"scenario.delayed_update_without_offload", "delays the host update of offloaded optimizer states: set training.offload.optimizer above 0"},
    {"scenario.histogram_not_array", "expected a non-empty array of per-expert loads"},
    {"scenario.histogram_load_not_number", "expected a number (the expert's load)"},
    {"scenario.histogram_load_negative", "{load} is not a load (0 or more)"},
    {"scenario.histogram_needs_loads", "kind \"histogram\" needs one load per expert"},
    {"scenario.histogram_wrong_kind", "given with kind \"{kind}\"; set kind to \"histogram\""},
    {"scenario.histogram_all_zero", "every load is 0: no token is routed"},
    {"scenario.imbalance_below_one", "{imbalance} is below 1 (busiest / mean load; 0 = uniform routing)"},
    {"scenario.imbalance_with_routing", "give either a busiest/mean factor or training.moe.routing.kind = \"{kind}\", not both"},
    {"scenario.mtbf_both", "give either gpu_failure_rate_per_hour or job_mtbf_s, not both"},
    {"scenario.world_mismatch",
     "dp·tp·pp·cp = {dp}·{tp}·{pp}·{cp} = {world} ≠ world size {size} (cluster.nodes {nodes} × cluster.gpus_per_node {per_node})"},
    {"scenario.params_out_of_range",
     "{total} parameters is out of range (the limit is {limit}); the largest tensor, {tensor}, is {fields} = {largest}"},
    {"scenario.params_out_of_range_layers",
     "{total} parameters is out of range (the limit is {limit}); the largest tensor, {tensor}, is {fields} × model.layers = {largest}"},
    {"scenario.memory_out_of_range",
     "{bytes} bytes of memory is out of range (the limit is 9e18): training.seq_len × training.micro_batch × model.hidden × model.layers is too "
     "large"},
    // scenario_rules.cpp: the cross-field rules the parser and the planner share.
    {"scenario.tp_vs_kv_heads", "{tp} neither divides nor is a multiple of model.kv_heads = {kv_heads}"},
    {"scenario.tp_comm_needs_sp", "needs parallel.sp: the overlap splits the SP AllGather and ReduceScatter"},
    {"scenario.needs_moe", "{value} needs a MoE model; model.moe.experts is 0"},
    {"scenario.a2a_overlap_needs_ep", "overlapping the EP all-to-all needs a MoE model with parallel.ep ≥ 2"},
    {"scenario.etp_exceeds_tp", "{etp} exceeds tp = {tp}; expert TP ranks come from the TP group"},
    {"scenario.redundant_exceeds", "{redundant} exceeds model.moe.experts = {experts}"},
    {"scenario.histogram_size", "{loads} loads for model.moe.experts = {experts} (one per expert)"},
    {"scenario.comm_sms_no_compute", "{comm_sms} leaves no SM for compute: cluster.gpu.sms = {sms}"},
    {"scenario.pp_chunks_exceed_layers", "{chunks} pipeline chunks exceed model.layers = {layers}"},
    {"scenario.global_batch_not_multiple", "{global_batch} is not a multiple of micro_batch × dp = {micro_batch} × {dp}"},
    // context.cpp: the context-parallel rules.
    {"context.usp_degree", "USP Ulysses degree {degree} does not divide cp = {cp}"},
    {"context.ulysses_heads", "Ulysses degree {degree} does not divide the heads per TP rank ({heads} / {tp} = {per_rank})"},
    {"context.ulysses_kv_heads",
     "Ulysses degree {degree} and the KV heads per TP rank ({kv_heads}) neither divide the other, so KV heads cannot be split or replicated evenly"},
    {"context.causal_chunks", "{method} with a causal mask needs training.seq_len = {seq_len} in 2·{split} equal chunks"},
    {"context.ring_needs_flash",
     "{method} merges the attention of each K/V block by its softmax statistics, which only a fused (flash) kernel returns: "
     "needs training.flash_attention"},
    // mesh.cpp, mesh_groups.cpp
    {"mesh.expert_dp_rule",
     "{ep} does not divide dp·cp = {dp_cp} (expert-DP rule: ep groups are carved out of the data- and context-parallel ranks, so ep must divide "
     "dp·cp)"},
    {"mesh.unknown_axis", "unknown axis \"{axis}\" in \"{order}\"; axes are {axes}"},
    {"mesh.unknown_axis_near", "unknown axis \"{axis}\" in \"{order}\"; axes are {axes} (did you mean {near}?)"},
    {"mesh.axis_twice", "axis {axis} appears twice in \"{order}\"; list each axis once"},
    {"mesh.axis_missing", "axis {axis} is missing from \"{order}\" but {axis} = {degree}"},
    {"mesh.world_mismatch", "dp·tp·pp·cp = {world} ≠ world size {size} (cluster.nodes {nodes} × cluster.gpus_per_node {per_node})"},
    // expert.cpp, expert_routing.cpp
    {"expert.redundant_not_multiple", "{redundant} is not a multiple of ep = {ep} (every rank holds the same number of slots)"},
    {"expert.redundant_exceeds", "{redundant} exceeds the {experts} experts"},
    {"expert.imbalance_below_one", "{imbalance} is below 1 (busiest / mean)"},
    // planner.cpp
    {"plan.gpus_over_limit", "{gpus} GPUs to plan for is over the limit of {limit}"},
    // validation_set.cpp
    {"validation.not_object", "a tslab/validation@1 object expected"},
    {"validation.schema", "must be \"tslab/validation@1\""},
    {"validation.unknown_metric", "'{metric}' is not one of {metrics}"},
    {"validation.source_without_id", "a source needs an arxiv id or a url"},
};
}  // namespace

std::span<const message_template> input() { return input_table; }

}  // namespace tslab::message_tables
