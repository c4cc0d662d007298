// Assembling the nine ledgers of one step and naming the one that binds first.
#include "tslab/step.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tslab/schedule_shape.hpp"

namespace tslab {

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

double model_state(const memory_report& m) { return model_state_bytes_of(m); }
double activations(const memory_report& m) { return activation_bytes_of(m); }

axis_comm sum_axes(const std::vector<axis_comm>& comm, std::initializer_list<const char*> axes) {
    axis_comm a;
    for (const auto& c : comm)
        for (const char* x : axes)
            if (c.axis == x) a.time_s += c.time_s, a.exposed_s += c.exposed_s, a.bytes += c.bytes;
    return a;
}

// "dp 0.12 s (0.12 exposed), tp 0.3 s (0.3 exposed)": the L5 axes one by one.
std::string axes_note(const std::vector<axis_comm>& comm) {
    std::string out;
    for (const auto& c : comm) {
        if (c.axis != "dp" && c.axis != "edp" && c.axis != "tp") continue;
        out += fmt::format("{}{} {:.3g} s ({:.3g} s exposed)", out.empty() ? "" : ", ", c.axis, c.time_s, c.exposed_s);
    }
    return out.empty() ? "no dp or tp traffic" : out + " per step, after overlap";
}

// What a host offload costs on the ledger it relieves (offload.hpp).
std::string offload_note(const std::string& base, double fraction, double seconds) {
    if (fraction <= 0) return base;
    return fmt::format("{}; {:.0f}% offloaded to host, {:.3g} s on the host link per step", base, 100 * fraction, seconds);
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
        {"L1", "model state", c.offload_optimizer_s, c.offload_optimizer_s, model_state(in.memory),
         offload_note("params, grads, master copy and optimizer states on the most loaded GPU", s.training.offload.optimizer,
                      c.offload_optimizer_s)},
        {"L2", "activation", c.offload_activations_s, c.offload_activations_s, activations(in.memory),
         offload_note(fmt::format("kept for backward; recompute {}", to_string(s.training.recompute)), s.training.offload.activations,
                      c.offload_activations_s)},
        {"L3", "compute", c.step_compute_s - not_l3_s(c), c.step_compute_s - not_l3_s(c), 0,
         fmt::format("{:.3g} s recompute, {:.3g} s optimizer; FP8 speed-up {:.2f}×", c.recompute_step_s, c.optimizer_s, c.fp8_speedup)},
        {"L4", "pipeline", in.bubble_s + in.p2p_exposed_s, in.bubble_s + in.p2p_exposed_s, pp.bytes,
         fmt::format("bubble {:.3g} s, exposed P2P {:.3g} s", in.bubble_s, in.p2p_exposed_s)},
        {"L5", "collective", l5.time_s + slow_s, l5.exposed_s + slow_s, l5.bytes,
         fmt::format("{}; {:.3g} s waiting for the slowest GPU", axes_note(in.comm), slow_s)},
        {"L6", "expert", ep.time_s + imbalance_s, ep.exposed_s + imbalance_s, ep.bytes,
         fmt::format("busiest EP rank {:.3f}× the mean; All-to-All exposed {:.3g} s{}", in.expert.imbalance_used, ep.exposed_s,
                     in.ep_overlap.pairs > 0 ? fmt::format(" ({:.3g} s hidden by {:g} F&B pairs, kernels on {:.0f}% of SMs)",
                                                           in.ep_overlap.hidden_s, in.ep_overlap.pairs, 100 * in.ep_overlap.sm_share)
                                            : std::string())},
        {"L7", "context", cp.time_s, cp.exposed_s, cp.bytes > 0 ? cp.bytes : cp_bytes, fmt::format("method {}", in.context.method)},
        // L8 time: the FP8 cast kernels, bytes / HBM bandwidth (numerics.hpp fp8_cast_of); the step's fp8_cast segment.
        {"L8", "numerics", c.fp8_cast_step_s, c.fp8_cast_step_s, in.numerics.weight_scale_bytes,
         c.fp8_cast_step_s > 0 ? fmt::format("{}; FP8 casts {:.3g} s", in.numerics.notes, c.fp8_cast_step_s) : in.numerics.notes},
        {"L9", "reliability", rel.write_s, 0, rel.checkpoint.total(),
         fmt::format("{} checkpoint every {:.3g} s (stalls {:.3g} s), job MTBF {:.3g} s, goodput {:.3f} (outside step time)",
                     rel.async ? "async" : "sync", rel.interval_s, rel.blocking_s, rel.mtbf_s, rel.goodput)},
    };
}

// What the scenario's chosen optimisation saves and where it moves the cost, with the ledger it
// concerns; the sentence for the binding ledger is preferred.
struct trade {
    std::string ledger, text;
};

// Selective recompute drops only the attention core's s² tensors (Korthikanti et al. arXiv
// 2205.05198 section 4.2); FlashAttention never stores them, so with Flash it saves nothing.
trade recompute_trade(const scenario& s, const step_inputs& in, const pipeline_shape& shape) {
    scenario plain = s;
    plain.training.recompute = recompute_kind::none;
    const double saved = activations(memory_ledger(plain, shape)) - activations(in.memory);
    const char* kind = to_string(s.training.recompute);
    if (saved < 0.05 * GiB)  // below what the sentence can show
        return {"L3", fmt::format("{} recompute saves no activation memory here{}, yet costs +{:.0f}% FLOPs", kind,
                                  s.training.flash_attention ? " (FlashAttention already keeps no s² attention scores)" : "",
                                  100 * in.compute.recompute_extra)};
    return {"L3", fmt::format("{} recompute saves {:.1f} GiB of activations and moves the cost to compute: +{:.0f}% FLOPs", kind,
                              saved / GiB, 100 * in.compute.recompute_extra)};
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
        out.push_back({"L5", fmt::format("ZeRO-{} saves {:.1f} GiB of model state and moves the cost to the DP network: {:.3g} s exposed on L5",
                                         s.parallel.zero, saved / GiB, r.ledgers[4].exposed_s)});
    }
    if (s.parallel.pp > 1)
        out.push_back({"L4", fmt::format("pipeline parallelism splits the layers {} ways and moves the cost to the bubble: {:.0f}% of the step",
                                         s.parallel.pp, 100 * r.ledgers[3].exposed_s / r.time_s)});
    if (s.parallel.ep > 1)
        out.push_back({"L6", fmt::format("expert parallelism spreads the experts over {} ranks and moves the cost to All-to-All and the busiest rank: {:.0f}% of the step",
                                         s.parallel.ep, 100 * r.ledgers[5].exposed_s / r.time_s)});
    if (s.parallel.cp > 1)
        out.push_back({"L7", fmt::format("context parallelism splits the sequence {} ways and moves the cost to {} traffic: {:.0f}% of the step",
                                         s.parallel.cp, s.parallel.cp_method, 100 * r.ledgers[6].exposed_s / r.time_s)});
    if (s.parallel.tp > 1)
        out.push_back({"L5", fmt::format("tensor parallelism splits each layer {} ways and moves the cost to TP collectives on L5", s.parallel.tp)});
    const double offloaded = offloaded_bytes_of(in.memory);
    if (offloaded > 0)  // offload.hpp: the bytes leave HBM and come back over the host link
        out.push_back({t.offload.optimizer > 0 ? "L1" : "L2",
                       fmt::format("offload keeps {:.1f} GiB in host memory and moves the cost to the host link: {:.3g} s per step",
                                   offloaded / GiB, in.compute.offload_optimizer_s + in.compute.offload_activations_s)});
    return out;
}

}  // namespace

std::string bottleneck_sentence(const scenario& s, const step_inputs& in, const step_result& r) {
    std::string head;
    std::string binding;
    if (!in.memory.fits) {
        const bool state = model_state(in.memory) >= activations(in.memory);
        binding = state ? "L1" : "L2";
        head = fmt::format("{} binds first: the most loaded GPU is {:.1f} GiB over its HBM", state ? "L1 model state" : "L2 activation",
                           -in.memory.headroom_bytes / GiB);
    } else {
        const step_ledger* top = &r.ledgers[2];
        for (std::size_t i = 3; i <= 6; ++i)
            if (r.ledgers[i].exposed_s > top->exposed_s) top = &r.ledgers[i];
        binding = top->id;
        head = fmt::format("{} {} binds first ({:.0f}% of the step)", top->id, top->name, 100 * top->exposed_s / r.time_s);
    }
    const auto trades = trades_of(s, in, r);
    if (trades.empty()) return head + "; no memory-saving optimisation is chosen";
    const trade* pick = &trades.front();
    for (const auto& t : trades)
        if (t.ledger == binding) pick = &t;
    return head + "; " + pick->text;
}

double step_time_of(const compute_estimate& c, double bubble_s, double p2p_exposed_s, const std::vector<axis_comm>& comm,
                    double imbalance_used) {
    double t = c.step_compute_s + bubble_s + p2p_exposed_s + c.expert_step_s * (imbalance_used - 1);
    for (const auto& a : comm)
        if (a.axis != "pp") t += a.exposed_s;
    return t;
}

std::vector<step_segment> step_segments(const compute_estimate& c, double bubble_s, double p2p_exposed_s,
                                        const std::vector<axis_comm>& comm, double imbalance_used, double time_s) {
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
    r.bottleneck = bottleneck_sentence(s, in, r);
    r.ep_overlap = in.ep_overlap;
    return r;
}

}  // namespace tslab
