// Building the report and serialising it; key order is fixed so native and wasm output match byte for byte.
#include "tslab/report.hpp"

#include <cmath>

#include "tslab/step_model.hpp"

namespace tslab {

double training_flops_per_token(const model_spec& m, const param_counts& c, std::int64_t seq_len) {
    double attn_dim = static_cast<double>(m.heads * m.head_dim);
    if (m.attention == attention_kind::mla)
        attn_dim = static_cast<double>(m.heads) *
                   static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim + m.mla.v_head_dim) / 2.0;
    const double n = static_cast<double>(c.active - c.embedding);
    return 6.0 * n + 6.0 * static_cast<double>(m.layers) * static_cast<double>(seq_len) * attn_dim;
}

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
    r.flops_per_token = training_flops_per_token(s.model, r.params, s.training.seq_len);
    r.microbatches = s.training.microbatches(s.parallel);
    r.compute = estimate_compute(s);
    r.mesh = build_mesh(mesh_spec_of(s), list_limit);
    r.comm = build_comm_inventory(s, r.mesh, r.params);
    r.pipeline = closed_form_shape(s.training.schedule, s.parallel.pp, s.parallel.vpp, r.microbatches);
    const schedule_request q = scenario_schedule_request(s, r.microbatches);
    r.timing = time_pipeline(q, chunk_costs(r.compute, q, pp_transfer_exposed_s(r.comm)));
    take_simulated_shape(r);
    r.memory = memory_ledger(s, r.pipeline);
    r.step = assemble_step(s, gather_step_inputs(s, r.compute, r.timing, r.memory, r.comm));
    return r;
}

namespace {

std::int64_t whole(double bytes) { return static_cast<std::int64_t>(std::llround(bytes)); }

json scenario_summary(const scenario& s, std::int64_t m) {
    const auto& p = s.parallel;
    return json{{"model", s.model.name},
                {"cluster", s.cluster.name},
                {"source", s.cluster.source},
                {"gpu", s.cluster.gpu.name},
                {"world", p.world()},
                {"nodes", s.cluster.nodes},
                {"gpus_per_node", s.cluster.gpus_per_node},
                {"parallel", {{"dp", p.dp}, {"tp", p.tp}, {"pp", p.pp}, {"vpp", p.vpp}, {"ep", p.ep}, {"etp", p.etp},
                              {"cp", p.cp}, {"cp_method", p.cp_method}, {"sp", p.sp}, {"zero", p.zero}, {"order", p.order}}},
                {"microbatches", m},
                {"precision", s.training.precision.recipe},
                {"optimizer", to_string(s.training.optimizer)},
                {"recompute", to_string(s.training.recompute)},
                {"schedule", to_string(s.training.schedule)}};
}

json memory_json(const memory_report& m) {
    json items = json::array();
    for (const auto& it : m.items) items.push_back({{"id", it.id}, {"bytes", whole(it.bytes)}, {"formula", it.formula}});
    json stages = json::array();
    for (double b : m.stage_total_bytes) stages.push_back(whole(b));
    return json{{"units", "bytes; 1 GiB = 2^30 B, 1 GB = 10^9 B"},
                {"rank", m.rank},
                {"stage", m.stage},
                {"total_bytes", whole(m.total_bytes)},
                {"capacity_bytes", whole(m.capacity_bytes)},
                {"headroom_bytes", whole(m.headroom_bytes)},
                {"fits", m.fits},
                {"inflight", m.inflight},
                {"layers_on_rank", m.layers_on_rank},
                {"items", std::move(items)},
                {"stage_total_bytes", std::move(stages)}};
}

}  // namespace

json report_to_json(const report& r) {
    json peak = json::array();
    for (double v : r.pipeline.inflight) peak.push_back(v);
    return json{{"schema", "tslab/report@1"},
                {"scenario", scenario_summary(r.input, r.microbatches)},
                {"model", {{"name", r.input.model.name},
                           {"params_total", r.params.total},
                           {"params_active", r.params.active},
                           {"params_embedding", r.params.embedding},
                           {"flops_per_token", r.flops_per_token}}},
                {"memory", memory_json(r.memory)},
                {"pipeline", {{"schedule", to_string(r.input.training.schedule)},
                              {"microbatches", r.microbatches},
                              {"chunks", r.pipeline.chunks},
                              {"param_copies", r.pipeline.param_copies},
                              {"makespan_s", r.timing.makespan_s},
                              {"bubble_fraction", r.timing.bubble_fraction},
                              {"bubble_s", r.timing.bubble_s},
                              {"p2p_exposed_s", r.timing.p2p_exposed_s},
                              {"simulated", r.timing.simulated},
                              {"peak_inflight", std::move(peak)},
                              {"inflight_formula", r.pipeline.inflight_formula}}},
                {"mesh", mesh_to_json(r.mesh)},
                {"comm", comm_to_json(r.comm)},
                {"step", step_to_json(r.step, r.compute, gemm_model_source(r.input.cluster.gpu, r.input.training.precision.gemm))}};
}

json step_to_json(const step_result& st, const compute_estimate& c, const std::string& gemm_model) {
    json ledgers = json::array();
    for (const auto& l : st.ledgers)
        ledgers.push_back({{"id", l.id}, {"name", l.name}, {"time_s", l.time_s}, {"exposed_s", l.exposed_s}, {"bytes", whole(l.bytes)},
                           {"notes", l.notes}});
    return json{{"time_s", st.time_s},
                {"tokens_per_s", st.tokens_per_s},
                {"tflops_per_gpu", st.tflops_per_gpu},
                {"mfu", st.mfu},
                {"hfu", st.hfu},
                {"goodput", st.goodput},
                {"model_flops_per_gpu", c.model_flops_per_gpu},
                {"hardware_flops_per_gpu", c.hardware_flops_per_gpu},
                {"compute_s", c.step_compute_s},
                {"gemm_model", gemm_model},
                {"ledgers", std::move(ledgers)},
                {"bottleneck", st.bottleneck}};
}

std::string report_json_text(const std::string& scenario_text) {
    return report_to_json(build_report(parse_scenario_text(scenario_text))).dump(2);
}

}  // namespace tslab
