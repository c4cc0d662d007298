// Building the report and serialising it; key order is fixed so native and wasm output match byte for byte.
#include "tslab/report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/expert_section.hpp"
#include "tslab/numerics_section.hpp"
#include "tslab/global_batch.hpp"
#include "tslab/step_model.hpp"

namespace tslab {

namespace {

// The simulator's per-rank peaks replace the closed-form in-flight counts (same chunk units:
// micro-batch × chunk), keeping closed_form_shape's chunk layout.
void take_simulated_shape(report& r) {
    if (!r.timing.simulated) return;
    for (std::size_t i = 0; i < r.timing.peak_inflight.size() && i < r.pipeline.inflight.size(); ++i)
        r.pipeline.inflight[i] = r.timing.peak_inflight[i];
    r.pipeline.param_copies = r.timing.param_copies;
    r.pipeline.inflight_formula = "simulated peak (F until W, or B) of the generated schedule";
}

}  // namespace

report build_report(const scenario& s, std::int64_t list_limit) {
    report r;
    r.input = s;
    r.params = count_params(s.model);
    r.flops_per_token = flops_per_sequence(s).model() / static_cast<double>(s.training.seq_len);  // flops_convention
    r.microbatches = s.training.microbatches(s.parallel);
    r.compute = estimate_compute(s);
    r.mesh = build_mesh(mesh_spec_of(s), list_limit);
    step_comm comm = step_comm_of(s, r.mesh, r.params, r.compute, r.microbatches);
    r.comm = std::move(comm.inventory);
    const stage_comm& sc = comm.per_microbatch;
    r.pipeline = closed_form_shape(s.training.schedule, s.parallel.pp, s.parallel.vpp, r.microbatches);
    const schedule_request q = scenario_schedule_request(s, r.microbatches);
    const pipeline_costs k = chunk_costs(r.compute, q, pp_transfer_exposed_s(r.comm), sc);
    r.timing = time_pipeline(q, k);
    take_simulated_shape(r);
    r.memory = memory_ledger(s, r.pipeline);
    r.step = assemble_step(s, gather_step_inputs(s, r.compute, r.timing, r.memory, r.comm, ep_overlap_of(q, k, sc.sm_share)));
    return r;
}

namespace {

// Bytes as an integer; parameters are capped (params.cpp), so only activations can leave int64.
std::int64_t whole(double bytes) {
    if (!(std::fabs(bytes) < 9e18)) throw input_error("training", msg("scenario.memory_out_of_range", {{"bytes", fmt::format("{:.3g}", bytes)}}));
    return static_cast<std::int64_t>(std::llround(bytes));
}

void write_parallel(json_writer& w, const parallel_spec& p) {
    w.key("parallel").begin_object();
    w.field("dp", p.dp).field("tp", p.tp).field("pp", p.pp).field("vpp", p.vpp).field("ep", p.ep).field("etp", p.etp);
    w.field("cp", p.cp).field("cp_method", to_string(p.cp_method)).field("sp", p.sp).field("zero", p.zero).field("order", p.order);
    w.end_object();
}

void write_scenario_summary(json_writer& w, const scenario& s, std::int64_t m) {
    w.key("scenario").begin_object();
    w.field("model", s.model.name).field("cluster", s.cluster.name).field("source", s.cluster.source);
    w.field("gpu", s.cluster.gpu.name).field("world", s.parallel.world()).field("nodes", s.cluster.nodes);
    w.field("gpus_per_node", s.cluster.gpus_per_node);
    write_parallel(w, s.parallel);
    w.field("microbatches", m).field("precision", s.training.precision.recipe);
    w.field("optimizer", to_string(s.training.optimizer)).field("recompute", to_string(s.training.recompute));
    w.field("schedule", to_string(s.training.schedule));
    w.end_object();
}

void write_model(json_writer& w, const report& r) {
    w.key("model").begin_object();
    w.field("name", r.input.model.name).field("params_total", r.params.total).field("params_active", r.params.active);
    w.field("params_embedding", r.params.embedding).field("flops_per_token", r.flops_per_token);
    w.end_object();
}

void write_memory(json_writer& w, const memory_report& m) {
    w.key("memory").begin_object();
    w.field("units", "bytes; 1 GiB = 2^30 B, 1 GB = 10^9 B").field("rank", m.rank).field("stage", m.stage);
    w.field("total_bytes", whole(m.total_bytes)).field("capacity_bytes", whole(m.capacity_bytes));
    w.field("headroom_bytes", whole(m.headroom_bytes)).field("fits", m.fits).field("inflight", m.inflight);
    w.field("layers_on_rank", m.layers_on_rank);
    w.field("model_state_bytes", whole(model_state_bytes_of(m))).field("activation_bytes", whole(activation_bytes_of(m)));
    w.key("items").begin_array();
    for (const auto& it : m.items) {
        w.begin_object();
        w.field("id", it.id).field("bytes", whole(it.bytes)).field("formula", it.formula);
        w.end_object();
    }
    w.end_array();
    w.key("stage_total_bytes").begin_array();
    for (double b : m.stage_total_bytes) w.value(whole(b));
    w.end_array();
    w.end_object();
}

void write_pipeline(json_writer& w, const report& r) {
    w.key("pipeline").begin_object();
    w.field("schedule", to_string(r.input.training.schedule)).field("microbatches", r.microbatches);
    w.field("chunks", r.pipeline.chunks).field("param_copies", r.pipeline.param_copies);
    w.field("makespan_s", r.timing.makespan_s).field("bubble_fraction", r.timing.bubble_fraction);
    w.field("bubble_s", r.timing.bubble_s).field("p2p_exposed_s", r.timing.p2p_exposed_s);
    w.field("simulated", r.timing.simulated).field("peak_inflight", r.pipeline.inflight);
    w.field("inflight_formula", r.pipeline.inflight_formula);
    w.end_object();
}

// The effective global batch, where it came from, and the micro-batch count it gives.
void write_batch(json_writer& w, const report& r) {
    const auto& t = r.input.training;
    const auto& p = r.input.parallel;
    w.field("global_batch", t.global_batch).field("global_batch_source", t.global_batch_given ? "given" : "auto");
    const std::vector<message> rule = t.global_batch_given ? given_global_batch_rule_msg()
                                                           : auto_global_batch_rule_msg(p.world(), t.seq_len, t.micro_batch * p.dp, t.schedule, p.pp);
    w.field("global_batch_rule", global_batch_rule_text(rule));
    w.key("global_batch_rule_msg");
    write_messages(w, rule);
    w.field("micro_batch", t.micro_batch).field("microbatches", r.microbatches);
}

void write_step(json_writer& w, const report& r) {
    const step_result& st = r.step;
    const compute_estimate& c = r.compute;
    w.key("step").begin_object();
    w.field("time_s", st.time_s).field("tokens_per_s", st.tokens_per_s).field("tflops_per_gpu", st.tflops_per_gpu);
    w.field("mfu", st.mfu).field("hfu", st.hfu).field("goodput", st.goodput);
    w.field("model_flops_per_gpu", c.model_flops_per_gpu).field("hardware_flops_per_gpu", c.hardware_flops_per_gpu);
    w.field("flops_convention", flops_convention);
    w.field("compute_s", c.step_compute_s).field("gemm_model", gemm_model_source(r.input.cluster.gpu, r.input.training.precision.gemm));
    w.key("ledgers").begin_array();
    for (const auto& l : st.ledgers) {
        w.begin_object();
        w.field("id", l.id).field("name", l.name).field("time_s", l.time_s).field("exposed_s", l.exposed_s);
        w.field("bytes", whole(l.bytes)).field("notes", l.notes);
        w.key("notes_msg");
        write_messages(w, l.notes_msg);
        w.end_object();
    }
    w.end_array();
    w.field("bottleneck", st.bottleneck);
    w.key("bottleneck_msg");
    write_messages(w, st.bottleneck_msg);
    w.key("ep_overlap").begin_object();
    w.field("pairs", st.ep_overlap.pairs).field("hidden_s", st.ep_overlap.hidden_s).field("sm_share", st.ep_overlap.sm_share);
    w.end_object();
    write_batch(w, r);
    w.key("segments").begin_array();
    for (const auto& g : st.segments) {
        w.begin_object();
        w.field("id", g.id).field("ledger", g.ledger).field("time_s", g.time_s).field("share", g.share);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

}  // namespace

void write_report(json_writer& w, const report& r) {
    w.begin_object();
    w.field("schema", "tslab/report@1");
    write_scenario_summary(w, r.input, r.microbatches);
    write_model(w, r);
    write_memory(w, r.memory);
    write_pipeline(w, r);
    w.key("mesh");
    write_mesh(w, r.mesh);
    w.key("comm");
    write_comm(w, r.comm);
    write_step(w, r);
    w.key("expert");
    write_expert_section(w, expert_section_of(r.input, r.mesh, r.compute, r.step));
    w.key("numerics");
    write_numerics_section(w, numerics_section_of(r.input, r.compute));
    w.end_object();
}

std::string report_text(const report& r) {
    return write_json([&](json_writer& w) { write_report(w, r); }, 16384);
}

json report_to_json(const report& r) { return json::parse(report_text(r)); }

std::string report_json_text(const std::string& scenario_text) { return report_text(build_report(parse_scenario_text(scenario_text))); }

}  // namespace tslab
