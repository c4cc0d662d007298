// English templates of the report's sentences: the step's bottleneck and ledger notes, mesh
// warnings, context-method reasons and the planner's words. Translations: web/src/i18n/messages*.ts.
#include "messages_tables.hpp"

namespace tslab::message_tables {

namespace {
constexpr message_template report_table[] = {
    // step.cpp: what binds first, then what the chosen optimisation saves and where it moves the cost.
    {"step.binds_memory", "{ledger} {name} binds first: the most loaded GPU is {over} GiB over its HBM"},
    {"step.binds_time", "{ledger} {name} binds first ({share}% of the step)"},
    {"step.trade.none", "no memory-saving optimisation is chosen"},
    {"step.trade.recompute", "{kind} recompute saves {saved} GiB of activations and moves the cost to compute: +{flops}% FLOPs"},
    {"step.trade.recompute_nothing", "{kind} recompute saves no activation memory here, yet costs +{flops}% FLOPs"},
    {"step.trade.recompute_nothing_flash",
     "{kind} recompute changes nothing here: FlashAttention already keeps no s² attention scores, so there is nothing to drop or run again"},
    {"step.trade.zero", "ZeRO-{stage} saves {saved} GiB of model state and moves the cost to the DP network: {exposed} s exposed on L5"},
    {"step.trade.pp", "pipeline parallelism splits the layers {ways} ways and moves the cost to the bubble: {share}% of the step"},
    {"step.trade.ep",
     "expert parallelism spreads the experts over {ranks} ranks and moves the cost to All-to-All and the busiest rank: {share}% of the step"},
    {"step.trade.cp", "context parallelism splits the sequence {ways} ways and moves the cost to {method} traffic: {share}% of the step"},
    {"step.trade.tp", "tensor parallelism splits each layer {ways} ways and moves the cost to TP collectives on L5"},
    {"step.trade.offload", "offload keeps {host} GiB in host memory and moves the cost to the host link and CPUs: {time} s per step"},
    // global_batch.cpp: the auto global batch rule with its numbers (report step, plan result).
    {"batch.auto",
     "auto: max(2^22 tokens / seq_len {seq_len} = {by_tokens}, world {world} GPUs) = {floor}, rounded up to 2^k = {power}, "
     "then to a multiple of micro_batch × dp = {unit}: {multiple}"},
    {"batch.auto_schedule", "then to {microbatches} micro-batches per pipeline for {schedule} ({rule}): {batch}"},
    {"batch.given", "set by training.global_batch"},
    // step.cpp: one note per ledger, in clauses.
    {"step.note.model_state", "params, grads, master copy and optimizer states on the most loaded GPU"},
    {"step.note.activation", "kept for backward; recompute {recompute}"},
    {"step.note.offload", "{percent}% offloaded to host, {time} s on the host link per step"},
    {"step.note.offload_delayed",
     "{percent}% offloaded to host, {time} s per step exposed; the host CPUs' update ({cpu} s) runs under the next step's forward and backward "
     "(delayed parameter update)"},
    {"step.note.offload_optimizer", "{percent}% offloaded to host, {time} s per step on the host link and the host CPUs' update ({cpu} s of it)"},
    {"step.note.compute", "{recompute} s recompute, {optimizer} s optimizer; FP8 speed-up {fp8}×"},
    {"step.note.last_stage",
     "the rank holding the last stage runs {ratio}× a full stage's compute per micro-batch (its layers and the output head), and the pipeline runs "
     "at its pace"},
    {"step.note.last_stage_mtp",
     "the rank holding the last stage runs {ratio}× a full stage's compute per micro-batch (its layers, the output head and {depth} MTP module(s)), "
     "and the pipeline runs at its pace"},
    {"step.note.pipeline", "bubble {bubble} s, exposed P2P {p2p} s"},
    {"step.note.axis", "{axis} {time} s per step ({exposed} s exposed after overlap)"},
    {"step.note.no_axes", "no dp or tp traffic"},
    {"step.note.slowest_gpu", "{time} s waiting for the slowest GPU"},
    {"step.note.expert", "busiest EP rank {imbalance}× the mean; All-to-All exposed {exposed} s"},
    {"step.note.expert_overlap", "{hidden} s hidden by {pairs} F&B pairs, kernels on {sm}% of SMs"},
    {"step.note.context", "method {method}"},
    {"step.note.fp8_casts", "FP8 casts {time} s"},
    {"step.note.reliability", "{mode} checkpoint every {interval} s (stalls {stall} s), job MTBF {mtbf} s, goodput {goodput} (outside step time)"},
    // numerics.cpp: the L8 note.
    {"numerics.note.no_fp8", "{gemm} GEMMs: no FP8 speed-up and no scaling factors"},
    {"numerics.note.no_fp8_cores", "{gpu} has no FP8 tensor cores: FP8 GEMMs run at the BF16 rate"},
    {"numerics.note.fp8", "FP8 GEMMs at {speedup}× the BF16 rate; scales add {scales}% to FP8 activation bytes"},
    // numerics_section.cpp: why a scaling recipe's row does not apply on this GPU.
    {"numerics.row.no_fp8_cores", "no FP8 tensor cores"},
    {"numerics.accumulate.bf16", "fp32 in the tensor core"},
    {"numerics.accumulate.fp8_tensorwise", "fp32 in the tensor core (Hopper: ~14-bit partial sums)"},
    {"numerics.accumulate.fp8_blockwise", "partial sums promoted to fp32 CUDA-core registers"},  // the view adds promote_every
    {"numerics.accumulate.mxfp8", "fp32 in the tensor core, scales applied in the MMA"},
    {"numerics.gemm_formula",
     "3 × m × Σ FP8-eligible forward GEMMs of the busiest stage at bf16 (m = {m} micro-batches); FP8 rows ÷ {speedup} (fp8_speedup)"},
    {"numerics.row.no_mx_scaling", "no MX block scaling in the tensor cores (Blackwell)"},
    // mesh_json.cpp: what the rank map puts on a slow link.
    {"mesh.tp_spans_nodes", "tp group of {size} spans {nodes} nodes: its per-layer {collective} crosses the NIC"},
    {"mesh.ep_spans_nodes", "ep group spans {nodes} nodes: All-to-All is NIC-bound"},
    {"mesh.cp_spans_nodes_ulysses", "cp group of {size} spans {nodes} nodes: its Ulysses All-to-All crosses the NIC every layer"},
    {"mesh.cp_spans_nodes_allgather", "cp group of {size} spans {nodes} nodes: the K/V All-Gather crosses the NIC every layer"},
    {"mesh.cp_spans_nodes_ring", "cp group of {size} spans {nodes} nodes: the ring K/V exchange crosses the NIC every layer"},
    {"mesh.ulysses_heads",
     "cp with Ulysses needs heads divisible by cp: {heads} heads / tp {tp} leaves {per_rank} per TP rank, not a multiple of cp = {cp}"},
    {"mesh.swap_tp_pp", "pp stays inside a node while tp crosses nodes: swap them in the order so the per-layer traffic stays on NVLink"},
    {"mesh.idle_gpus", "the plan uses {used} of {nodes} nodes × {per_node} GPUs: {idle} GPUs sit idle"},
    // planner.cpp, planner_output.cpp: why a search result is partial or empty.
    {"plan.capped",
     "search capped at {evaluated} evaluated candidates (options.max_candidates): {done} of {total} layouts searched; the result is partial"},
    {"plan.stopped", "search stopped after {seconds} s (options.max_seconds = {max}): {done} of {total} layouts searched; the result is partial"},
    {"plan.pareto_closed_form",
     "{kept} Pareto plans keep the search's closed-form time (time_from \"search\"): simulating them would pass options.max_seconds = {max}"},
    {"plan.no_valid_plan", "no plan of {gpus} GPUs passes the scenario rules (divisibility, batch, schedule preconditions)"},
    {"plan.nothing_fits", "no plan fits in HBM; the closest ({closest}) needs {needs} GiB, {over} GiB over the {capacity} GiB capacity"},
    // calibration_warnings.cpp: where a profile does not describe the cluster it is applied to.
    {"calibration.warn.other_gpu", "calibration profile measured {device} but the cluster's GPU is {gpu}: its figures describe other hardware"},
    {"calibration.warn.one_node",
     "calibration profile measured {measured} node(s) but the cluster has {nodes}: no inter-node fit, the inter-node link stays the datasheet's"},
    {"calibration.warn.fewer_nodes",
     "calibration profile measured {measured} nodes but the cluster has {nodes}: its inter-node fits are extrapolated to a larger scale"},
    {"calibration.warn.small_node_group",
     "calibration profile's largest intra-node group has {ranks} ranks but the cluster has {per_node} GPUs per node"},
    {"calibration.warn.incomplete", "calibration profile is incomplete: some probes were not measured"},
    {"calibration.warn.incomplete_why", "calibration profile is incomplete ({why}): some probes were not measured"},
    {"calibration.warn.cpu_backend", "calibration profile was measured with the CPU backend (MPI between processes), not on GPUs"},
    // context_methods.cpp
    {"context.cp_splits_nothing", "1 splits nothing; {method} needs cp ≥ 2"},
};
}  // namespace

std::span<const message_template> report() { return report_table; }

}  // namespace tslab::message_tables
