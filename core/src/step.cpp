// Assembling the nine ledgers of one step and naming the one that binds first.
#include "tslab/step.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tslab/schedule_shape.hpp"
#include "tslab/units.hpp"

namespace tslab {

namespace {

double model_state(const memory_report& m) { return model_state_bytes_of(m); }
double activations(const memory_report& m) { return activation_bytes_of(m); }

axis_comm sum_axes(const std::vector<axis_comm>& comm, std::initializer_list<const char*> axes) {
    axis_comm a;
    for (const auto& c : comm)
        for (const char* x : axes)
            if (c.axis == x) a.time_s += c.time_s, a.exposed_s += c.exposed_s, a.bytes += c.bytes;
    return a;
}

std::string g3(double v) { return fmt::format("{:.3g}", v); }
std::string f0(double v) { return fmt::format("{:.0f}", v); }
std::string f1(double v) { return fmt::format("{:.1f}", v); }

// The compute note, and where the rank with the last stage outweighs a full stage by 5% or more
// (the head and MTP modules on top of its layers, compute.hpp last_rank_load), that it sets the pace.
std::vector<message> l3_notes(const scenario& s, const compute_estimate& c) {
    std::vector<message> out{
        msg("step.note.compute",
            {{"recompute", g3(c.recompute_step_s)}, {"optimizer", g3(c.optimizer_s)}, {"fp8", fmt::format("{:.2f}", c.fp8_speedup)}})};
    if (c.last_rank_load < 1.05) return out;
    const std::string ratio = fmt::format("{:.2f}", c.last_rank_load);
    if (s.training.mtp_depth > 0)
        out.push_back(msg("step.note.last_stage_mtp", {{"ratio", ratio}, {"depth", fmt::format("{}", s.training.mtp_depth)}}));
    else
        out.push_back(msg("step.note.last_stage", {{"ratio", ratio}}));
    return out;
}

// "dp 0.12 s per step (0.12 s exposed after overlap)", one clause per L5 axis, then the slowest GPU.
std::vector<message> l5_notes(const std::vector<axis_comm>& comm, double slow_s) {
    std::vector<message> out;
    for (const auto& c : comm)
        if (c.axis == "dp" || c.axis == "edp" || c.axis == "tp")
            out.push_back(msg("step.note.axis", {{"axis", std::string(c.axis)}, {"time", g3(c.time_s)}, {"exposed", g3(c.exposed_s)}}));
    if (out.empty()) out.push_back(msg("step.note.no_axes"));
    out.push_back(msg("step.note.slowest_gpu", {{"time", g3(slow_s)}}));
    return out;
}

// What a host offload costs on the ledger it relieves (offload.hpp): a second clause where any is offloaded.
std::vector<message> offload_note(message base, double fraction, message clause) {
    std::vector<message> out{std::move(base)};
    if (fraction > 0) out.push_back(std::move(clause));
    return out;
}

// The optimizer states' clause names the host CPUs' update inside the time, or, under the delayed
// update, that it runs beside the next step.
message optimizer_offload_clause(const scenario& s, const compute_estimate& c) {
    const auto& off = s.training.offload;
    return msg(off.delayed_update ? "step.note.offload_delayed" : "step.note.offload_optimizer",
               {{"percent", f0(100 * off.optimizer)}, {"time", g3(c.offload_optimizer_s)}, {"cpu", g3(c.offload_optimizer_cpu_s)}});
}

// The expert ledger's note: the busiest rank, the exposed all-to-all and what DualPipe's pairs hide.
std::vector<message> l6_notes(const step_inputs& in, double exposed_s) {
    std::vector<message> out{msg("step.note.expert", {{"imbalance", fmt::format("{:.3f}", in.expert.imbalance_used)}, {"exposed", g3(exposed_s)}})};
    const auto& o = in.ep_overlap;
    if (o.pairs > 0)
        out.push_back(
            msg("step.note.expert_overlap", {{"hidden", g3(o.hidden_s)}, {"pairs", fmt::format("{:g}", o.pairs)}, {"sm", f0(100 * o.sm_share)}}));
    return out;
}

std::vector<message> l8_notes(const numerics_report& n, double cast_s) {
    std::vector<message> out{n.notes_msg};
    if (cast_s > 0) out.push_back(msg("step.note.fp8_casts", {{"time", g3(cast_s)}}));
    return out;
}

message l9_note(const reliability_report& rel) {
    return msg("step.note.reliability",
               {{"mode", rel.async ? "async" : "sync"},
                {"interval", g3(rel.interval_s)},
                {"stall", g3(rel.blocking_s)},
                {"mtbf", g3(rel.mtbf_s)},
                {"goodput", fmt::format("{:.3f}", rel.goodput)}});
}

// One ledger row; its English notes are its clauses joined (messages.hpp english).
step_ledger ledger(std::string id, std::string name, double time_s, double exposed_s, double bytes, std::vector<message> notes) {
    std::string english_notes = english(notes);
    return {std::move(id), std::move(name), time_s, exposed_s, bytes, std::move(notes), std::move(english_notes)};
}

double offload_s(const compute_estimate& c) { return c.offload_optimizer_s + c.offload_activations_s; }

// The parts of step_compute_s that other ledgers own: host offload (L1, L2), the slowest GPU's delay
// (L5) and the FP8 cast kernels (L8).
double not_l3_s(const compute_estimate& c) { return c.slowest_gpu_step_s + offload_s(c) + c.fp8_cast_step_s; }

std::vector<step_ledger> ledgers_of(const scenario& s, const step_inputs& in) {
    const compute_estimate& c = in.compute;
    // The pp send-recv reaches the step through the simulator (L4); L5 keeps dp, expert dp and tp.
    const axis_comm l5 = sum_axes(in.comm, {"dp", "edp", "tp"}), pp = sum_axes(in.comm, {"pp"});
    const axis_comm ep = sum_axes(in.comm, {"ep"}), cp = sum_axes(in.comm, {"cp"});
    const double imbalance_s = c.expert_step_s * (in.expert.imbalance_used - 1);
    const double slow_s = c.slowest_gpu_step_s;  // computed at the slowest GPU's pace, waited for at collectives
    double cp_bytes = 0;
    for (const auto& it : in.context.items) cp_bytes += it.bytes * (it.count_fwd + it.count_bwd);
    const auto& rel = in.reliability;
    return {
        ledger("L1", "model state", c.offload_optimizer_s, c.offload_optimizer_s, model_state(in.memory),
               offload_note(msg("step.note.model_state"), s.training.offload.optimizer, optimizer_offload_clause(s, c))),
        ledger(
            "L2", "activation", c.offload_activations_s, c.offload_activations_s, activations(in.memory),
            offload_note(msg("step.note.activation", {{"recompute", to_string(s.training.recompute)}}), s.training.offload.activations,
                         msg("step.note.offload", {{"percent", f0(100 * s.training.offload.activations)}, {"time", g3(c.offload_activations_s)}}))),
        ledger("L3", "compute", c.step_compute_s - not_l3_s(c), c.step_compute_s - not_l3_s(c), 0, l3_notes(s, c)),
        ledger("L4", "pipeline", in.bubble_s + in.p2p_exposed_s, in.bubble_s + in.p2p_exposed_s, pp.bytes,
               {msg("step.note.pipeline", {{"bubble", g3(in.bubble_s)}, {"p2p", g3(in.p2p_exposed_s)}})}),
        ledger("L5", "collective", l5.time_s + slow_s, l5.exposed_s + slow_s, l5.bytes, l5_notes(in.comm, slow_s)),
        ledger("L6", "expert", ep.time_s + imbalance_s, ep.exposed_s + imbalance_s, ep.bytes, l6_notes(in, ep.exposed_s)),
        ledger("L7", "context", cp.time_s, cp.exposed_s, cp.bytes > 0 ? cp.bytes : cp_bytes,
               {msg("step.note.context", {{"method", in.context.method}})}),
        // L8 time: the FP8 cast kernels, bytes / HBM bandwidth (numerics.hpp fp8_cast_of); the step's fp8_cast segment.
        ledger("L8", "numerics", c.fp8_cast_step_s, c.fp8_cast_step_s, in.numerics.weight_scale_bytes, l8_notes(in.numerics, c.fp8_cast_step_s)),
        ledger("L9", "reliability", rel.write_s, 0, rel.checkpoint.total(), {l9_note(rel)}),
    };
}

// What the scenario's chosen optimisation saves and where it moves the cost, with the ledger it
// concerns; the sentence for the binding ledger is preferred.
struct trade {
    std::string ledger;
    message text;
};

// Selective recompute drops only the attention core's s² tensors (Korthikanti et al. arXiv
// 2205.05198 section 4.2); FlashAttention never stores them, so with Flash it saves nothing on an
// MHA/GQA model. The FLOPs are what the mode adds over none: FlashAttention's backward recomputes
// QKᵀ under every mode, so that share is not the mode's cost.
trade recompute_trade(const scenario& s, const step_inputs& in, const pipeline_shape& shape) {
    scenario plain = s;
    plain.training.recompute = recompute_kind::none;
    const double saved = activations(memory_ledger(plain, shape)) - activations(in.memory);
    const sequence_flops without = flops_per_sequence(plain);  // model FLOPs do not depend on recompute
    const double added = in.compute.recompute_extra - without.recompute / without.model();
    const char* kind = to_string(s.training.recompute);
    if (saved < 0.05 * gib_bytes) {  // below what the sentence can show
        if (s.training.flash_attention && added < 0.005) return {"L3", msg("step.trade.recompute_nothing_flash", {{"kind", kind}})};
        return {"L3", msg("step.trade.recompute_nothing", {{"kind", kind}, {"flops", f0(100 * added)}})};
    }
    return {"L3", msg("step.trade.recompute", {{"kind", kind}, {"saved", f1(saved / gib_bytes)}, {"flops", f0(100 * added)}})};
}

std::vector<trade> trades_of(const scenario& s, const step_inputs& in, const step_result& r) {
    std::vector<trade> out;
    const auto& t = s.training;
    const pipeline_shape shape = closed_form_shape(t.schedule, s.parallel.pp, s.parallel.vpp, in.compute.microbatches);
    if (t.recompute != recompute_kind::none) out.push_back(recompute_trade(s, in, shape));
    if (s.parallel.zero > 0) {
        scenario plain = s;
        plain.parallel.zero = 0;
        const double saved = model_state(memory_ledger(plain, shape)) - model_state(in.memory);
        out.push_back({"L5",
                       msg("step.trade.zero",
                           {{"stage", std::to_string(s.parallel.zero)}, {"saved", f1(saved / gib_bytes)}, {"exposed", g3(r.ledgers[4].exposed_s)}})});
    }
    if (s.parallel.pp > 1)
        out.push_back(
            {"L4", msg("step.trade.pp", {{"ways", std::to_string(s.parallel.pp)}, {"share", f0(100 * r.ledgers[3].exposed_s / r.time_s)}})});
    if (s.parallel.ep > 1)
        out.push_back(
            {"L6", msg("step.trade.ep", {{"ranks", std::to_string(s.parallel.ep)}, {"share", f0(100 * r.ledgers[5].exposed_s / r.time_s)}})});
    if (s.parallel.cp > 1)
        out.push_back({"L7",
                       msg("step.trade.cp",
                           {{"ways", std::to_string(s.parallel.cp)},
                            {"method", to_string(s.parallel.cp_method)},
                            {"share", f0(100 * r.ledgers[6].exposed_s / r.time_s)}})});
    if (s.parallel.tp > 1) out.push_back({"L5", msg("step.trade.tp", {{"ways", std::to_string(s.parallel.tp)}})});
    const double offloaded = offloaded_bytes_of(in.memory);
    if (offloaded > 0)  // offload.hpp: the bytes leave HBM and come back over the host link
        out.push_back({t.offload.optimizer > 0 ? "L1" : "L2",
                       msg("step.trade.offload",
                           {{"host", f1(offloaded / gib_bytes)}, {"time", g3(in.compute.offload_optimizer_s + in.compute.offload_activations_s)}})});
    return out;
}

}  // namespace

std::vector<message> bottleneck_sentence(const scenario& s, const step_inputs& in, const step_result& r) {
    std::vector<message> out;
    std::string binding;
    if (!in.memory.fits) {
        const bool state = model_state(in.memory) >= activations(in.memory);
        binding = state ? "L1" : "L2";
        out.push_back(
            msg("step.binds_memory",
                {{"ledger", binding}, {"name", state ? "model state" : "activation"}, {"over", f1(-in.memory.headroom_bytes / gib_bytes)}}));
    } else {
        const step_ledger* top = &r.ledgers[2];
        for (std::size_t i = 3; i <= 6; ++i)
            if (r.ledgers[i].exposed_s > top->exposed_s) top = &r.ledgers[i];
        binding = top->id;
        out.push_back(msg("step.binds_time", {{"ledger", top->id}, {"name", top->name}, {"share", f0(100 * top->exposed_s / r.time_s)}}));
    }
    auto trades = trades_of(s, in, r);
    if (trades.empty()) {
        out.push_back(msg("step.trade.none"));
        return out;
    }
    trade* pick = &trades.front();
    for (auto& t : trades)
        if (t.ledger == binding) pick = &t;
    out.push_back(std::move(pick->text));
    return out;
}

double step_time_of(const compute_estimate& c, double bubble_s, double p2p_exposed_s, const std::vector<axis_comm>& comm, double imbalance_used) {
    double t = c.step_compute_s + bubble_s + p2p_exposed_s + c.expert_step_s * (imbalance_used - 1);
    for (const auto& a : comm)
        if (a.axis != "pp") t += a.exposed_s;
    return t;
}

std::vector<step_segment> step_segments(const compute_estimate& c, double bubble_s, double p2p_exposed_s, const std::vector<axis_comm>& comm,
                                        double imbalance_used, double time_s) {
    std::vector<step_segment> out;
    auto add = [&](const char* id, const char* ledger, double t) { out.push_back({id, ledger, t, time_s > 0 ? t / time_s : 0}); };
    // The slowest GPU's delay (sync.hpp) is waiting at the step's collectives: its own L5 segment.
    add("compute", "L3", c.step_compute_s - c.recompute_step_s - c.optimizer_s - not_l3_s(c));
    add("recompute", "L3", c.recompute_step_s);
    add("optimizer", "L3", c.optimizer_s);
    add("fp8_cast", "L8", c.fp8_cast_step_s);  // m × Σ layers cast bytes / HBM bandwidth (compute.hpp)
    add("offload_optimizer", "L1", c.offload_optimizer_s);
    add("offload_activations", "L2", c.offload_activations_s);
    // The pp send-recv reaches the step through the simulator: it is the p2p segment, not an axis.
    for (const auto& [axis, ledger] : {std::pair{"dp", "L5"}, {"edp", "L5"}, {"tp", "L5"}, {"ep", "L6"}, {"cp", "L7"}})
        add(axis, ledger, sum_axes(comm, {axis}).exposed_s);
    add("bubble", "L4", bubble_s);
    add("p2p", "L4", p2p_exposed_s);
    add("expert_imbalance", "L6", c.expert_step_s * (imbalance_used - 1));
    add("slowest_gpu", "L5", c.slowest_gpu_step_s);
    return out;
}

step_result assemble_step(const scenario& s, const step_inputs& in) {
    step_result r;
    r.ledgers = ledgers_of(s, in);
    r.time_s = step_time_of(in.compute, in.bubble_s, in.p2p_exposed_s, in.comm, in.expert.imbalance_used);
    const auto& t = s.training;
    r.tokens_per_s = static_cast<double>(t.global_batch * t.seq_len) / r.time_s;
    r.tflops_per_gpu = in.compute.hardware_flops_per_gpu / r.time_s / 1e12;
    const double peak = s.cluster.gpu.peak_flops(dtype::bf16);
    r.mfu = in.compute.model_flops_per_gpu / r.time_s / peak;
    r.hfu = in.compute.hardware_flops_per_gpu / r.time_s / peak;
    r.goodput = in.reliability.goodput;
    r.segments = step_segments(in.compute, in.bubble_s, in.p2p_exposed_s, in.comm, in.expert.imbalance_used, r.time_s);
    r.bottleneck_msg = bottleneck_sentence(s, in, r);
    r.bottleneck = english(r.bottleneck_msg);
    r.ep_overlap = in.ep_overlap;
    return r;
}

}  // namespace tslab
