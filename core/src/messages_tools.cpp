// English templates of the tools' errors and words: calibration profiles, collective queries,
// pipeline schedules, RL, the wasm bindings and the command lines.
#include "messages_tables.hpp"

namespace tslab::message_tables {

namespace {
constexpr message_template table[] = {
    // calibration_parse.cpp, calibration_sections.cpp, calibration_provenance.cpp, calibration_detail.hpp
    {"calibration.missing_field", "missing required field"},
    {"calibration.must_be_positive", "must be positive"},
    {"calibration.negative", "must not be negative, got {value}"},
    {"calibration.expected_array", "expected an array"},
    {"calibration.expected_number", "expected a number"},
    {"calibration.expected_string", "expected a string"},
    {"calibration.expected_string_array", "expected an array of strings"},
    {"calibration.expected_version_string", "expected a version string"},
    {"calibration.residuals_count", "has {entries} entries for {samples} samples"},
    {"calibration.median_outside", "median {median} s lies outside [time_min_s {min}, time_max_s {max}]"},
    {"calibration.schema_unsupported", "\"{schema}\" is not supported; expected tslab/calibration@1"},
    {"calibration.duplicate_entry", "duplicate entry for {op} × {ranks} ranks × {scope} (also at index {index})"},
    {"calibration.duplicate_curve", "duplicate curve for {dtype}"},
    {"calibration.nodes_exceed_ranks", "{nodes} nodes exceed {ranks} ranks"},
    // profile_store.cpp, wasm/calibration_binding.cpp
    {"calibration.too_many_profiles", "{count} profiles are loaded already (the limit is {limit})"},
    {"calibration.profile_not_loaded", "no profile \"{name}\" is loaded"},
    // collective_query.cpp, collectives.cpp
    {"collective.op_missing", "missing; expected one of allreduce, reducescatter, allgather, alltoall, broadcast, reduce, sendrecv"},
    {"collective.unknown_op", "unknown collective \"{name}\""},
    {"collective.unknown_op_near", "unknown collective \"{name}\"; did you mean {near}?"},
    {"collective.unknown_algorithm", "unknown algorithm \"{name}\""},
    {"collective.unknown_algorithm_near", "unknown algorithm \"{name}\"; did you mean {near}?"},
    {"collective.unknown_library", "unknown algorithm set \"{name}\"; expected mpich or nccl"},
    {"collective.bandwidth_not_positive", "{value} must be positive: a link without bandwidth never delivers"},
    {"collective.bandwidth_too_low", "{value} is below 1e3 B/s: a link that slow never delivers"},
    {"collective.value_negative", "{value} must not be negative"},
    {"collective.value_not_positive", "{value} must be positive"},
    // {shape} is the literal "{bandwidth_Bps, latency_s}": braces in a template mark a parameter.
    {"collective.link_not_spec", "expected {shape} or a tier name: intra_node | inter_node"},
    {"collective.ranks_not_multiple", "{ranks} is not a multiple of ranks_per_node = {per_node}: a group spanning nodes fills each node alike"},
    {"collective.ranks_below_two", "{ranks} must be at least 2: a collective needs a peer"},
    {"collective.per_node_with_link", "applies only without link: the group then sits on the cluster's nodes"},
    {"collective.nodes_cannot_hold", "{nodes} nodes × {per_node} ranks per node cannot hold {ranks} ranks"},
    {"collective.link_bandwidth_not_positive", "bandwidth_Bps {value} must be positive"},
    {"collective.link_latency_negative", "latency_s {value} must not be negative"},
    {"collective.algorithm_not_applicable",
     "{algorithm} does not apply to {op} on {ranks} ranks ({link} link, {library} algorithms); choose one of {choices}"},
    // pipeline_sim.cpp: an op of a listed schedule, "rank 1 op 3 (F micro-batch 2 stage 1)"; *_half: the backward half of an FB op.
    {"schedule.op_out_of_range", "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): micro-batch or stage out of range"},
    {"schedule.op_out_of_range_half",
     "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}) (backward half): micro-batch or stage out of range"},
    {"schedule.op_wrong_slot",
     "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): that stage runs on rank {slot_rank} chunk {slot_chunk}"},
    {"schedule.op_wrong_slot_half",
     "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}) (backward half): that stage runs on rank {slot_rank} chunk {slot_chunk}"},
    {"schedule.op_misplaced", "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): misplaced"},
    {"schedule.forward_twice", "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): forward runs twice"},
    {"schedule.backward_twice", "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): backward runs twice"},
    {"schedule.backward_twice_half", "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}) (backward half): backward runs twice"},
    {"schedule.backward_before_forward",
     "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): backward before its forward on this rank"},
    {"schedule.backward_before_forward_half",
     "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}) (backward half): backward before its forward on this rank"},
    {"schedule.w_twice", "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): W runs twice"},
    {"schedule.w_without_i", "rank {rank} op {index} ({kind} micro-batch {microbatch} stage {stage}): W needs an earlier I on this rank"},
    // {ops}: the first waiting op of each stuck rank, in the op form above, joined by "; ".
    {"schedule.deadlock", "deadlock: every remaining op waits for another rank: {ops}"},
    {"schedule.never_completes_f", "micro-batch {microbatch} never completes F on stage {stage}"},
    {"schedule.never_completes_backward", "micro-batch {microbatch} never completes its backward on stage {stage}"},
    {"schedule.never_completes_w", "micro-batch {microbatch} never completes W on stage {stage}"},
    {"schedule.cost_not_finite", "must be a finite number"},
    {"schedule.cost_negative", "must be ≥ 0, got {value}"},
    {"schedule.w_exceeds_b", "the weight-grad part W = {w} exceeds the full backward B = {b}"},
    {"schedule.fb_exceeds_sum", "an overlapped pair FB = {fb} cannot exceed F + B = {sum}"},
    {"schedule.fb_below_max", "an overlapped pair FB = {fb} cannot be shorter than max(F, B) = {max}"},
    // pipeline_schedule.cpp, schedule_io.cpp: the caps on generated and listed ops.
    {"schedule.extra_warmup_interleaved_only", "extra warm-up micro-batches (Kimi K2) apply to the interleaved schedule only"},
    {"schedule.ops_over_cap", "{schedule} with ranks {ranks} · m {m} · vpp {vpp} needs {ops} ops, over the cap of {cap} ops"},
    {"schedule.ops_over_cap_zbv",
     "{schedule} with ranks {ranks} · m {m} · vpp {vpp} needs {ops} ops (ZB-V generates at least 2·ranks − 1 micro-batches), over the cap of {cap} ops"},
    {"schedule.listed_ops_over_cap_timeline",
     "{schedule} with ranks {ranks} · m {m} · vpp {vpp} lists {ops} ops, over the cap of {cap} listed ops; set \"timeline\": false for the summary without ops[]"},
    {"schedule.listed_ops_over_cap_trace",
     "{schedule} with ranks {ranks} · m {m} · vpp {vpp} lists {ops} ops, over the cap of {cap} listed ops; a trace lists every op"},
    // schedule_rules.cpp: the schedule preconditions. {ranks_field}, {schedule_field}: the input's own names.
    {"schedule.at_least_one", "must be at least 1, got {value}"},
    {"schedule.one_stage", "{schedule} is a pipeline schedule and needs {ranks_field} ≥ {min_pp}; with one stage use {fallback}"},
    {"schedule.vpp_unused", "{vpp} needs {schedule_field} = {schedules}, not {schedule}"},
    {"schedule.vpp_needed", "{label} needs vpp ≥ 2 model chunks per rank"},
    {"schedule.vpp_max", "at most {max} chunks per rank, got {vpp}"},
    {"schedule.ranks_even", "{label} needs an even number of ranks (PP), got {ranks}"},
    {"schedule.ranks_multiple", "{label} needs ranks (PP) a multiple of {multiple}, got {ranks}"},
    {"schedule.microbatches_multiple", "{label} needs micro-batches m = {m} divisible by {ranks_name} = {ranks}"},
    {"schedule.microbatches_even", "{label} splits the micro-batches between its two directions, so m must be even, got {m}"},
    {"schedule.microbatches_too_few", "{schedule} needs m ≥ {per_rank}·{ranks_name} = {needed} micro-batches, got {m}"},
    // rl_json.cpp
    {"rl.schema", "expected \"tslab/rl@1\""},
    {"rl.scenario_missing", "missing: the training scenario (tslab/scenario@1) the RL iteration runs on"},
    {"rl.no_room_for_response", "{context} leaves no room for a response after rl.prompt_tokens = {prompt}"},
    {"rl.inference_tp_not_divide", "{tp} does not divide the scenario's {gpus} GPUs into decode replicas"},
    {"rl.gpus_not_array", "an array of 1 to 64 GPU counts"},
    {"rl.gpu_count", "a whole number of GPUs from 1 to 10000000"},
    // wasm/plan_binding.cpp
    {"plan.no_search", "no search in progress; call planStart first"},
    {"plan.budget_range", "{budget} is not a number of combinations in [1, 1e12]"},
    // native/cli/main.cpp, native/common/cli_parse.cpp. {detail}: CLI11's own English words.
    {"cli.input_too_large", "more than {limit} bytes: over the input limit (--max-input-bytes)"},
    {"cli.empty_file_name", "an empty file name"},
    {"cli.cannot_open", "cannot open file"},
    {"cli.unexpected_argument", "unexpected argument for {command}; see {full} --help"},
    {"cli.unknown_option", "unknown option for {command}; see {full} --help"},
    {"cli.unknown_option_owners", "unknown option for {command} (an option of {owners}; options follow their command); see {full} --help"},
    {"cli.command_missing", "missing; expected one of {commands}; see {root} --help"},
    {"cli.unknown_command", "unknown command; expected one of {commands}; see {root} --help"},
    {"cli.unknown_command_near", "unknown command; did you mean {near}? expected one of {commands}; see {root} --help"},
    {"cli.invalid_value", "{detail}"},
    {"cli.needs_value", "needs a value; see {full} --help"},
    {"cli.parse_error", "{detail}; see {full} --help"},
};
}  // namespace

std::span<const message_template> tools() { return table; }

}  // namespace tslab::message_tables
