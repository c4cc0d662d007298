// A scenario written back as tslab/scenario@1 (scenario_json.hpp); the inverse of parse_scenario.
#include "tslab/scenario_json.hpp"

namespace tslab {

namespace {

json cluster_json(const scenario& s) {
    json c = s.cluster_input;
    const std::int64_t world = s.parallel.world(), gpn = s.cluster.gpus_per_node;
    // A given node count must equal the world (scenario_rules.cpp); 0 sizes the cluster to the plan.
    if (c.is_object() && c.contains("nodes")) c["nodes"] = s.cluster.nodes * gpn == world ? s.cluster.nodes : 0;
    if (!s.cluster.calibration.is_null()) {
        if (c.is_string()) c = json{{"preset", c}};
        c["calibration"] = s.cluster.calibration;
    }
    return c;
}

json parallel_json(const parallel_spec& p) {
    return json{{"dp", p.dp}, {"tp", p.tp},     {"pp", p.pp},      {"vpp", p.vpp},
                {"ep", p.ep}, {"etp", p.etp},   {"cp", p.cp},      {"cp_method", to_string(p.cp_method)},
                {"sp", p.sp}, {"zero", p.zero}, {"order", p.order}};
}

json precision_json(const precision_spec& p) {
    return json{{"recipe", p.recipe},
                {"params", to_string(p.params)},
                {"grads", to_string(p.grads)},
                {"master", to_string(p.master)},
                {"optimizer", to_string(p.optimizer)},
                {"activations", to_string(p.activations)},
                {"gemm", to_string(p.gemm)},
                {"reduce", to_string(p.reduce)}};
}

// The parser takes a failure rate or a job MTBF, not both: the MTBF when one was set.
json reliability_json(const reliability_spec& r) {
    json j = json::object();
    if (r.job_mtbf_s > 0)
        j["job_mtbf_s"] = r.job_mtbf_s;
    else
        j["gpu_failure_rate_per_hour"] = r.gpu_failure_rate_per_hour;
    j["checkpoint_storage_Bps"] = r.checkpoint_storage_Bps;
    j["restart_s"] = r.restart_s;
    j["checkpoint_interval_s"] = r.checkpoint_interval_s;
    j["async_checkpoint"] = r.async_checkpoint;
    return j;
}

json moe_json(const moe_training_spec& m) {
    json routing = {{"kind", m.routing.kind}, {"skew", m.routing.skew}};
    if (!m.routing.histogram.empty()) routing["histogram"] = m.routing.histogram;
    json j = {{"imbalance", m.imbalance},
              {"redundant_experts", m.redundant_experts},
              {"comm_sms", m.comm_sms},
              {"node_limit", m.node_limit},
              {"routing", std::move(routing)}};
    if (m.a2a_overlap) j["a2a_overlap"] = true;  // only where set: scenarios without it read as before
    return j;
}

json training_json(const training_spec& t) {
    const auto& o = t.overlap;
    return json{
        {"seq_len", t.seq_len},
        {"micro_batch", t.micro_batch},
        {"global_batch", t.global_batch},
        {"recompute", to_string(t.recompute)},
        {"flash_attention", t.flash_attention},
        {"precision", precision_json(t.precision)},
        {"optimizer", to_string(t.optimizer)},
        {"offload", {{"optimizer", t.offload.optimizer}, {"activations", t.offload.activations}, {"delayed_update", t.offload.delayed_update}}},
        {"schedule", to_string(t.schedule)},
        {"overlap",
         {{"dp", o.dp},
          {"tp", o.tp},
          {"pp", o.pp},
          {"ep", o.ep},
          {"cp", o.cp},
          {"grad_reduce", o.grad_reduce},
          {"param_gather", o.param_gather},
          {"bucket_elems", o.bucket_elems},
          {"tp_comm", o.tp_comm}}},
        {"moe", moe_json(t.moe)},
        {"mtp_depth", t.mtp_depth},
        {"reliability", reliability_json(t.reliability)}};
}

}  // namespace

json scenario_to_json(const scenario& s) {
    return json{{"schema", "tslab/scenario@1"},
                {"model", s.model_input},
                {"cluster", cluster_json(s)},
                {"parallel", parallel_json(s.parallel)},
                {"training", training_json(s.training)}};
}

}  // namespace tslab
