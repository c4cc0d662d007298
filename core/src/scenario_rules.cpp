// Cross-field rules of a scenario: divisibility, expert-DP, schedule preconditions, world size.
#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/mesh.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

namespace {

void require_divides(std::int64_t d, std::int64_t n, const std::string& path, const std::string& what) {
    if (n % d != 0) throw input_error(path, fmt::format("{} does not divide {} = {}", d, what, n));
}

void check_tensor_parallel(const scenario& s) {
    const auto& m = s.model;
    const auto& p = s.parallel;
    require_divides(p.tp, m.heads, "parallel.tp", "model.heads");
    if (m.attention == attention_kind::gqa && m.kv_heads % p.tp != 0 && p.tp % m.kv_heads != 0)
        throw input_error("parallel.tp", fmt::format("{} neither divides nor is a multiple of model.kv_heads = {}", p.tp, m.kv_heads));
    require_divides(p.tp, m.ffn_hidden, "parallel.tp", "model.ffn_hidden");
}

void check_experts(const scenario& s) {
    const auto& m = s.model;
    const auto& p = s.parallel;
    if (!m.is_moe()) {
        if (p.ep > 1) throw input_error("parallel.ep", fmt::format("{} needs a MoE model; model.moe.experts is 0", p.ep));
        if (p.etp > 1) throw input_error("parallel.etp", fmt::format("{} needs a MoE model; model.moe.experts is 0", p.etp));
        return;
    }
    require_divides(p.ep, m.moe.experts, "parallel.ep", "model.moe.experts");
    require_expert_dp_rule(p.ep, p.dp, p.cp, "parallel.ep");
    require_divides(p.etp, m.moe.expert_ffn_hidden, "parallel.etp", "model.moe.expert_ffn_hidden");
    if (p.etp > p.tp) throw input_error("parallel.etp", fmt::format("{} exceeds tp = {}; expert TP ranks come from the TP group", p.etp, p.tp));
}

void check_context(const scenario& s) {
    const auto& p = s.parallel;
    if (p.cp == 1) return;
    // Ring attention with a causal mask is load-balanced by splitting the sequence in 2·cp chunks.
    require_divides(2 * p.cp, s.training.seq_len, "parallel.cp", "training.seq_len (2·cp chunks for causal balance)");
    if (p.cp_method == "ulysses" && (s.model.heads / p.tp) % p.cp != 0)
        throw input_error("parallel.cp", fmt::format("Ulysses needs heads per TP rank ({} / {}) divisible by cp = {}", s.model.heads, p.tp, p.cp));
}

void check_pipeline(const scenario& s) {
    const auto& p = s.parallel;
    const auto sched = s.training.schedule;
    const std::int64_t m = s.training.microbatches(p);
    if (p.vpp > 1 && sched != schedule_kind::interleaved)
        throw input_error("parallel.vpp", fmt::format("{} needs training.schedule = interleaved, not {}", p.vpp, to_string(sched)));
    if (sched == schedule_kind::interleaved) {
        if (p.vpp < 2) throw input_error("parallel.vpp", "interleaved 1F1B needs vpp ≥ 2");
        if (m % p.pp != 0)
            throw input_error("training.global_batch", fmt::format("interleaved 1F1B needs micro-batches m = {} divisible by pp = {}", m, p.pp));
    }
    if (sched == schedule_kind::dualpipe || sched == schedule_kind::dualpipev) {
        if (sched == schedule_kind::dualpipe && p.pp % 2 != 0)
            throw input_error("parallel.pp", fmt::format("DualPipe needs an even pp, got {}", p.pp));
        if (m < 2 * p.pp)
            throw input_error("training.global_batch", fmt::format("{} needs m ≥ 2·pp = {} micro-batches, got {}", to_string(sched), 2 * p.pp, m));
    }
    const std::int64_t chunks = p.pp * p.vpp * ((sched == schedule_kind::zbv || sched == schedule_kind::dualpipev) ? 2 : 1);
    if (chunks > s.model.layers)
        throw input_error("parallel.pp", fmt::format("{} pipeline chunks exceed model.layers = {}", chunks, s.model.layers));
}

void check_world(scenario& s) {
    auto& c = s.cluster;
    const std::int64_t world = s.parallel.world();
    if (c.nodes == 0) {
        c.nodes = (world + c.gpus_per_node - 1) / c.gpus_per_node;  // the cluster follows the plan
        return;
    }
    if (world != c.nodes * c.gpus_per_node)
        throw input_error("parallel", fmt::format("dp·tp·pp·cp = {}·{}·{}·{} = {} ≠ world size {} (cluster.nodes {} × cluster.gpus_per_node {})",
                                                  s.parallel.dp, s.parallel.tp, s.parallel.pp, s.parallel.cp, world,
                                                  c.nodes * c.gpus_per_node, c.nodes, c.gpus_per_node));
}

}  // namespace

void check_cross_rules(scenario& s) {
    check_tensor_parallel(s);
    check_experts(s);
    check_context(s);
    check_pipeline(s);
    check_world(s);
}

}  // namespace tslab
