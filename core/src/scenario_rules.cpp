// Cross-field rules of a scenario: divisibility, expert-DP, context, schedule preconditions, global
// batch and world size. One copy, used by the parser (which throws) and the planner (which counts).
#include <fmt/format.h>

#include "tslab/context.hpp"
#include "tslab/errors.hpp"
#include "tslab/mesh.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/scenario.hpp"
#include "tslab/schedule_rules.hpp"

namespace tslab {

namespace {

// Records the first violation; the reason (a message) is formatted only when someone asked for it.
struct sink {
    rule_violation* why;
    template <class F>
    bool fail(const char* path, F&& reason) const {
        if (why) {
            message m = reason();
            *why = {path, english(m), std::move(m)};
        }
        return false;
    }
    bool divides(std::int64_t d, std::int64_t n, const char* path, const char* what) const {
        if (n % d == 0) return true;
        return fail(path, [&] { return msg("input.does_not_divide", {{"value", num_text(d)}, {"what", what}, {"n", num_text(n)}}); });
    }
};

bool tensor_parallel_ok(const scenario& s, const sink& k) {
    const auto& m = s.model;
    const auto& p = s.parallel;
    if (!k.divides(p.tp, m.heads, "parallel.tp", "model.heads")) return false;
    if (m.attention == attention_kind::gqa && m.kv_heads % p.tp != 0 && p.tp % m.kv_heads != 0)
        return k.fail("parallel.tp", [&] { return msg("scenario.tp_vs_kv_heads", {{"tp", num_text(p.tp)}, {"kv_heads", num_text(m.kv_heads)}}); });
    if (!k.divides(p.tp, m.ffn_hidden, "parallel.tp", "model.ffn_hidden")) return false;
    // TransformerEngine's userbuffers overlap splits the SP collectives (NeMo refuses tp_comm_overlap without SP).
    if (s.training.overlap.tp_comm && p.tp > 1 && !p.sp) return k.fail("training.overlap.tp_comm", [] { return msg("scenario.tp_comm_needs_sp"); });
    return true;
}

bool experts_ok(const scenario& s, const sink& k) {
    const auto& m = s.model;
    const auto& p = s.parallel;
    const auto& t = s.training.moe;
    if (!m.is_moe()) {
        if (p.ep > 1) return k.fail("parallel.ep", [&] { return msg("scenario.needs_moe", {{"value", num_text(p.ep)}}); });
        if (p.etp > 1) return k.fail("parallel.etp", [&] { return msg("scenario.needs_moe", {{"value", num_text(p.etp)}}); });
        if (t.a2a_overlap) return k.fail("training.moe.a2a_overlap", [] { return msg("scenario.a2a_overlap_needs_ep"); });
        return true;
    }
    if (t.a2a_overlap && p.ep < 2) return k.fail("training.moe.a2a_overlap", [] { return msg("scenario.a2a_overlap_needs_ep"); });
    if (t.a2a_overlap && !pair_steady_allowed(s.training.schedule, p.pp))
        return k.fail("training.moe.a2a_overlap", [&] {
            return msg("schedule.pair_steady_interleaved_only", {{"schedule", to_string(s.training.schedule)}, {"pp", num_text(p.pp)}});
        });
    if (!k.divides(p.ep, m.moe.experts, "parallel.ep", "model.moe.experts")) return false;
    if (!expert_dp_rule_holds(p.ep, p.dp, p.cp)) return k.fail("parallel.ep", [&] { return expert_dp_rule_message(p.ep, p.dp, p.cp); });
    if (!k.divides(p.etp, m.moe.expert_ffn_hidden, "parallel.etp", "model.moe.expert_ffn_hidden")) return false;
    if (p.etp > p.tp)
        return k.fail("parallel.etp", [&] { return msg("scenario.etp_exceeds_tp", {{"etp", num_text(p.etp)}, {"tp", num_text(p.tp)}}); });
    // Redundant slots keep a static per-rank shape: a multiple of ep, at most the expert count (expert.hpp).
    if (t.redundant_experts % p.ep != 0)
        return k.fail("training.moe.redundant_experts", [&] {
            return msg("expert.redundant_not_multiple", {{"redundant", num_text(t.redundant_experts)}, {"ep", num_text(p.ep)}});
        });
    if (t.redundant_experts > m.moe.experts)
        return k.fail("training.moe.redundant_experts", [&] {
            return msg("scenario.redundant_exceeds", {{"redundant", num_text(t.redundant_experts)}, {"experts", num_text(m.moe.experts)}});
        });
    if (t.routing.kind == "histogram" && static_cast<std::int64_t>(t.routing.histogram.size()) != m.moe.experts)
        return k.fail("training.moe.routing.histogram", [&] {
            return msg("scenario.histogram_size", {{"loads", fmt::format("{}", t.routing.histogram.size())}, {"experts", num_text(m.moe.experts)}});
        });
    // The EP kernels hold comm_sms while they run; the overlapped compute needs at least one SM.
    if (t.comm_sms >= s.cluster.gpu.sms)
        return k.fail("training.moe.comm_sms", [&] {
            return msg("scenario.comm_sms_no_compute", {{"comm_sms", num_text(t.comm_sms)}, {"sms", fmt::format("{}", s.cluster.gpu.sms)}});
        });
    return true;
}

bool context_ok(const scenario& s, const sink& k) {
    const auto& p = s.parallel;
    if (p.cp == 1) return true;
    // Ring attention with a causal mask is load-balanced by splitting the sequence in 2·cp chunks.
    if (!k.divides(2 * p.cp, s.training.seq_len, "parallel.cp", "training.seq_len (2·cp chunks for causal balance)")) return false;
    return context_rules_hold(s, k.why);
}

bool pipeline_ok(const scenario& s, const sink& k) {
    const auto& p = s.parallel;
    const auto sched = s.training.schedule;
    const std::int64_t m = s.training.microbatches(p);
    // The schedule's own preconditions (schedule_rules.hpp), the same check `tslab schedule` makes.
    const schedule_rule rule = broken_schedule_rule(sched, p.pp, m, p.vpp);
    if (rule != schedule_rule::ok) {
        if (k.why) {
            schedule_rule_text t = explain_schedule_rule(rule, sched, p.pp, m, p.vpp, scenario_paths);
            *k.why = {std::move(t.path), std::move(t.reason), std::move(t.msg)};
        }
        return false;
    }
    const std::int64_t chunks = path_stages(describe(sched), p.pp, p.vpp);  // the model is cut into the stages of the path
    if (chunks > s.model.layers)
        return k.fail("parallel.pp", [&] {
            return msg("scenario.pp_chunks_exceed_layers", {{"chunks", num_text(chunks)}, {"layers", num_text(s.model.layers)}});
        });
    return true;
}

bool batch_ok(const scenario& s, const sink& k) {
    const auto& t = s.training;
    if (t.global_batch % (t.micro_batch * s.parallel.dp) == 0) return true;
    return k.fail("training.global_batch", [&] {
        return msg("scenario.global_batch_not_multiple",
                   {{"global_batch", num_text(t.global_batch)}, {"micro_batch", num_text(t.micro_batch)}, {"dp", num_text(s.parallel.dp)}});
    });
}

void check_world(scenario& s) {
    auto& c = s.cluster;
    const std::int64_t world = s.parallel.world();
    if (c.nodes == 0) {
        c.nodes = (world + c.gpus_per_node - 1) / c.gpus_per_node;  // the cluster follows the plan
        return;
    }
    if (world != c.nodes * c.gpus_per_node)
        throw input_error("parallel",
                          msg("scenario.world_mismatch",
                              {{"dp", fmt::format("{}", s.parallel.dp)},
                               {"tp", fmt::format("{}", s.parallel.tp)},
                               {"pp", fmt::format("{}", s.parallel.pp)},
                               {"cp", fmt::format("{}", s.parallel.cp)},
                               {"world", fmt::format("{}", world)},
                               {"size", fmt::format("{}", c.nodes * c.gpus_per_node)},
                               {"nodes", fmt::format("{}", c.nodes)},
                               {"per_node", fmt::format("{}", c.gpus_per_node)}}));
}

}  // namespace

bool plan_rules_hold(const scenario& s, rule_violation* why) {
    const sink k{why};
    return batch_ok(s, k) && tensor_parallel_ok(s, k) && experts_ok(s, k) && context_ok(s, k) && pipeline_ok(s, k);
}

bool layout_rules_hold(const scenario& s) {
    const sink k{nullptr};
    return tensor_parallel_ok(s, k) && experts_ok(s, k) && context_ok(s, k);
}

bool schedule_rules_hold(const scenario& s) {
    const sink k{nullptr};
    return batch_ok(s, k) && pipeline_ok(s, k);
}

void check_cross_rules(scenario& s) {
    rule_violation why;
    if (!plan_rules_hold(s, &why)) throw input_error(why.path, why.msg);
    check_world(s);
}

}  // namespace tslab
