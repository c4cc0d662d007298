// The step's collectives: DP/ZeRO gradient and parameter traffic, TP/SP per-layer collectives,
// PP activations, EP dispatch/combine and CP (Ring, Ulysses) traffic, each timed on its group.
#include "tslab/comm_inventory.hpp"

#include <algorithm>

#include "tslab/context.hpp"
#include "tslab/dp_buckets.hpp"
#include "tslab/expert_dispatch.hpp"
#include "tslab/schedule_table.hpp"

namespace tslab {

mesh_spec mesh_spec_of(const scenario& s) {
    const auto& p = s.parallel;
    mesh_spec m;
    m.dp = p.dp, m.tp = p.tp, m.pp = p.pp, m.ep = p.ep, m.cp = p.cp;
    m.order = p.order;
    m.gpus_per_node = s.cluster.gpus_per_node;
    m.nodes = 0;  // parse_scenario already held world = nodes × gpus_per_node, or sized the cluster to the plan
    m.sp = p.sp;
    m.cp_method = p.cp_method;
    m.heads = s.model.heads;
    return m;
}

namespace {

// Per-rank sizes every item needs.
struct step_facts {
    double m = 1;  // micro-batches per step
    double layers = 1;  // layers on the most loaded stage
    double moe_layers = 0;  // MoE layers on it
    double tokens = 1;  // tokens of one micro-batch on one rank (b·s/cp)
    double act = 2;  // activation bytes per element
    double dense = 0, expert = 0;  // local parameter elements (average stage)
    double grad = 2, param = 2;  // bytes per element
    // Stages a rank holds: DualPipe puts stage r and stage p-1-r on rank r ("two copies of the model
    // parameters", DeepSeek-V3 arXiv 2412.19437 section 3.2.1; the memory ledger counts both).
    double copies = 1;
};

step_facts facts_of(const scenario& s, const param_counts& pc) {
    const auto& p = s.parallel;
    step_facts f;
    f.m = static_cast<double>(s.training.microbatches(p));
    // The most layers a stage holds (compute.hpp busiest_stage), whose per-layer exchanges are the
    // most any stage makes: kept where the compute binds on the last stage with fewer layers and the
    // head, as it does not read recompute (the planner shares the EP and CP axes across it).
    const std::int64_t per_stage = (s.model.layers + p.pp - 1) / p.pp;
    f.layers = static_cast<double>(per_stage);
    f.moe_layers = static_cast<double>(std::min(per_stage, moe_layer_count(s.model)));
    f.tokens = static_cast<double>(s.training.micro_batch * s.training.seq_len) / static_cast<double>(p.cp);
    f.act = static_cast<double>(dtype_bytes(s.training.precision.activations));
    f.dense = static_cast<double>(pc.total - pc.expert_total) / static_cast<double>(p.tp * p.pp);
    f.expert = static_cast<double>(pc.expert_total) / static_cast<double>(p.ep * p.etp * p.pp);
    f.copies = describe(s.training.schedule).param_copies;
    f.grad = static_cast<double>(dtype_bytes(s.training.precision.reduce_dtype()));  // the dtype the reduction runs in
    f.param = static_cast<double>(dtype_bytes(s.training.precision.params));
    return f;
}

group_topology topology_of(const axis_groups& a) {
    switch (a.binding()) {
        case link_class::intra: return group_topology::flat(a.size, link_class::intra);
        case link_class::inter: return group_topology::flat(a.size, link_class::inter);
        default: return {a.size, a.max_nodes, a.max_per_node};
    }
}

// Point-to-point between neighbours along an axis: on NVLink only if every group stays in a node.
group_topology neighbours(const axis_groups& a) {
    return group_topology::flat(2, a.binding() == link_class::intra ? link_class::intra : link_class::inter);
}

// `what` is a callable giving the item's sentence, called only when the inventory keeps text.
struct builder {
    const comm_links& links;
    comm_inventory& out;
    bool text = true;
    template <class What>
    void add(const What& what, collective_op op, const char* axis, const char* per, double count, double overlap, double bytes,
             const group_topology& g, double forward_share = 0.5) {
        if (count <= 0 || bytes <= 0 || g.ranks < 2) return;
        // GPU training runs NCCL: its algorithm set, not MPICH's (collectives.hpp).
        out.items.push_back({text ? std::string(what()) : std::string(), axis, per, count, overlap,
                             estimate_collective(op, bytes, g, links, std::nullopt, collective_library::nccl), forward_share});
    }
};

// DP (ZeRO, arXiv 1910.02054 section 5): stage 0 AllReduce; 1-2 ReduceScatter + AllGather of the
// updated shards; 3 gathers each layer's params in forward and backward, reduce-scatters its grads.
void add_data_parallel(builder& b, const scenario& s, const step_facts& f, const char* axis, const char* kind, double elems, double layers,
                       const group_topology& g) {
    const int z = s.parallel.zero;
    const auto& o = s.training.overlap;
    const double ov = o.dp;
    const std::string k = kind;
    // Bucketed overlap issues one collective per bucket (dp_buckets.hpp); otherwise one call.
    const auto buckets = [&](double e, bool on) { return on ? static_cast<double>(dp_bucket_count(e, dp_bucket_elems(o, g.ranks))) : 1.0; };
    // Once per step a rank reduces and gathers every stage it holds; a micro-batch's backward and
    // a layer's exchange touch one stage.
    const double held = elems * f.copies;
    if (z == 0) {
        const double ng = buckets(held, o.grad_reduce);
        b.add([&] { return "gradient AllReduce (" + k + ")"; }, collective_op::allreduce, axis, "step", ng, ov, held * f.grad / ng, g);
    }
    if (z == 1 || z == 2) {
        // A stage that keeps only its gradient shard (ZeRO-2) cannot accumulate whole gradients over
        // the step's m micro-batches: each backward reduce-scatters them (vocabulary.hpp, zero_stage_rows).
        const double rounds = zero_stage_rows[static_cast<std::size_t>(z)].grads_reduced_per_microbatch ? f.m : 1;
        const double grads = rounds > 1 ? elems : held, ng = buckets(grads, o.grad_reduce), np = buckets(held, o.param_gather);
        b.add([&] { return "gradient ReduceScatter (" + k + ", ZeRO-" + std::to_string(z) + ")"; }, collective_op::reducescatter, axis,
              rounds > 1 ? "micro-batch" : "step", rounds * ng, ov, grads * f.grad / ng, g);
        b.add([&] { return "parameter AllGather after the update (" + k + ")"; }, collective_op::allgather, axis, "step", np, ov, held * f.param / np,
              g);
    }
    if (z == 3 && layers > 0) {
        const char* per = k == "expert" ? "MoE layer/micro-batch" : "layer/micro-batch";
        b.add([&] { return "parameter AllGather per layer, forward + backward (" + k + ", ZeRO-3)"; }, collective_op::allgather, axis, per,
              2 * f.m * layers, ov, elems / layers * f.param, g);
        b.add([&] { return "gradient ReduceScatter per layer (" + k + ", ZeRO-3)"; }, collective_op::reducescatter, axis, per, f.m * layers, ov,
              elems / layers * f.grad, g);
    }
}

void add_dp(builder& b, const scenario& s, const mesh_layout& m, const step_facts& f) {
    const auto& p = s.parallel;
    if (p.dp * p.cp > 1) add_data_parallel(b, s, f, "dp", "dense", f.dense, f.layers, topology_of(m.dp_cp));
    // Expert grads reduce over the expert-DP group dp·cp·tp/(ep·etp) (the memory ledger's rule).
    const std::int64_t ne = p.dp * p.cp * p.tp / (p.ep * p.etp);
    if (!s.model.is_moe() || ne < 2) return;
    group_topology g = topology_of(m.edp);
    g.ranks = ne;
    g.per_node = std::max((ne + g.nodes - 1) / g.nodes, std::min(ne, g.per_node * p.tp / p.etp));
    add_data_parallel(b, s, f, "edp", "expert", f.expert, f.moe_layers, g);
}

// Megatron TP (arXiv 1909.08053 section 3): 2 AllReduce forward, 2 backward per layer; with SP
// (arXiv 2205.05198 section 4.2.2) each becomes an AllGather + ReduceScatter of the full [s,b,h].
void add_tp(builder& b, const scenario& s, const mesh_layout& m, const step_facts& f) {
    if (s.parallel.tp < 2) return;
    const double S = f.tokens * static_cast<double>(s.model.hidden) * f.act;
    const double per_layer = 4 + (s.training.recompute == recompute_kind::full ? 2 : 0);  // full recompute reruns the forward
    const double n = per_layer * f.m * f.layers, ov = s.training.overlap.tp, fwd = 2 / per_layer;
    const group_topology g = topology_of(m.axis("tp"));
    if (!s.parallel.sp) {
        b.add([] { return "tp AllReduce of layer outputs, forward + backward"; }, collective_op::allreduce, "tp", "layer/micro-batch", n, ov, S, g,
              fwd);
        return;
    }
    b.add([] { return "sp AllGather before attention and MLP, forward + backward"; }, collective_op::allgather, "tp", "layer/micro-batch", n, ov, S,
          g, fwd);
    b.add([] { return "sp ReduceScatter after attention and MLP, forward + backward"; }, collective_op::reducescatter, "tp", "layer/micro-batch", n,
          ov, S, g, fwd);
}

// Pipeline: each micro-batch crosses every chunk boundary once forward and once backward.
void add_pp(builder& b, const scenario& s, const mesh_layout& m, const step_facts& f) {
    const auto& p = s.parallel;
    if (p.pp < 2) return;
    const double S = f.tokens * static_cast<double>(s.model.hidden) * f.act / static_cast<double>(p.sp ? p.tp : 1);
    b.add([] { return "pp activation / gradient send-recv"; }, collective_op::sendrecv, "pp", "micro-batch", 2 * f.m * static_cast<double>(p.vpp),
          s.training.overlap.pp, S, neighbours(m.axis("pp")));
}

// MoE: dispatch and combine, forward and backward. Payloads and their NVLink / network split are
// the expert section's (expert_dispatch.hpp: FP8 dispatch with 1×128 scales under fp8 GEMMs, BF16
// combine; node-limited routing, DeepSeek-V3 arXiv 2412.19437 section 2.1.2, moves bytes from the
// network to NVLink): pairwise All-to-All time (n−1)·α + max(network / B_inter, NVLink / B_intra).
void add_ep(builder& b, const scenario& s, const mesh_layout& m, const step_facts& f) {
    const auto& p = s.parallel;
    if (!s.model.is_moe() || p.ep < 2) return;
    const dispatch_split d = dispatch_split_of(s, m);
    const double n = 2 * f.m * f.moe_layers, ov = s.training.overlap.ep;
    const group_topology g = topology_of(m.axis("ep"));
    if (n <= 0 || d.dispatch_bytes <= 0) return;
    const char* per = "MoE layer/micro-batch";
    b.out.items.push_back({b.text ? "ep dispatch All-to-All, forward + backward" : "", "ep", per, n, ov,
                           estimate_alltoall_split(d.dispatch_bytes, d.dispatch_network_bytes, d.dispatch_nvlink_bytes, g, b.links)});
    b.out.items.push_back({b.text ? "ep combine All-to-All, forward + backward" : "", "ep", per, n, ov,
                           estimate_alltoall_split(d.combine_bytes, d.combine_network_bytes, d.combine_nvlink_bytes, g, b.links)});
}

// The ranks of one sub-group of the cp axis: `size` consecutive members (Ulysses inside USP).
group_topology cp_subgroup(const axis_groups& a, std::int64_t size) {
    if (size >= a.size) return topology_of(a);
    const std::int64_t per = std::min(size, a.max_per_node), nodes = (size + per - 1) / per;
    return nodes == 1 ? group_topology::flat(size, link_class::intra)
        : per == 1    ? group_topology::flat(size, link_class::inter)
                      : group_topology{size, nodes, per};
}

// CP traffic is the L7 ledger's (context.hpp), call by call: Ulysses All-to-All over its degree,
// ring K/V block passes between neighbours, all-gather CP's K/V All-Gather and dK/dV ReduceScatter
// over the cp group. training.overlap.cp hides a share of the Ulysses and all-gather exchanges; the
// ring passes get their overlap from the attention kernels they run under (apply_cp_overlap).
void add_cp(builder& b, const scenario& s, const mesh_layout& m, const step_facts& f) {
    if (s.parallel.cp < 2) return;
    const auto& axis = m.axis("cp");
    const context_report r = context_traffic(s);
    for (const auto& it : r.items) {
        if (it.axis != "cp") continue;
        const double calls = it.count_fwd + it.count_bwd, n = calls * f.m * f.layers;
        const auto op = *collective_from_name(it.op);
        const group_topology g = it.part == "ring" ? neighbours(axis) : cp_subgroup(axis, static_cast<std::int64_t>(it.group));
        b.add([&] { return std::string("cp ").append(it.what); }, op, "cp", "layer/micro-batch", n, it.overlappable ? 0 : s.training.overlap.cp,
              it.bytes, g, calls > 0 ? it.count_fwd / calls : 0.5);
        if (it.overlappable && !b.out.items.empty() && b.out.items.back().axis == "cp") b.out.items.back().ring_block = true;
    }
}

comm_inventory build(const scenario& s, const mesh_layout& m, const param_counts& pc, bool all_axes, bool text) {
    comm_inventory inv;
    const comm_links links = text ? links_of(s.cluster) : link_tiers_of(s.cluster);
    inv.source = links.source;
    inv.items.reserve(12);
    builder b{links, inv, text};
    const step_facts f = facts_of(s, pc);
    if (all_axes) {
        add_dp(b, s, m, f);
        add_tp(b, s, m, f);
        add_pp(b, s, m, f);
    }
    add_ep(b, s, m, f);
    add_cp(b, s, m, f);
    inv.sum_items();
    return inv;
}

}  // namespace

comm_inventory build_comm_inventory(const scenario& s, const mesh_layout& m, const param_counts& pc, bool item_text) {
    return build(s, m, pc, true, item_text);
}

comm_inventory build_ep_cp_inventory(const scenario& s, const mesh_layout& m, const param_counts& pc, bool item_text) {
    return build(s, m, pc, false, item_text);
}

namespace {

void write_comm_item(json_writer& w, const comm_item& it) {
    const auto& e = it.call;
    w.begin_object();
    w.field("what", it.what).field("op", describe(e.op).name).field("axis", it.axis).field("per", it.per);
    w.field("bytes", e.bytes).field("link", to_string(e.link)).field("time_s", e.time_s);
    w.field("exposed_s", e.exposed_s(it.overlap)).field("count", it.count).field("ranks", e.ranks);
    w.field("algorithm", e.algorithm_name).field("wire_bytes", e.wire_bytes).field("rounds", e.rounds);
    w.field("alpha_s", e.alpha_s).field("beta_s", e.beta_s).field("algbw_Bps", e.algbw_Bps).field("busbw_Bps", e.busbw_Bps);
    w.field("overlap", it.overlap).field("step_time_s", it.step_time_s()).field("step_exposed_s", it.step_exposed_s());
    w.end_object();
}

}  // namespace

std::vector<axis_comm> axis_sums(const comm_inventory& c) {
    std::vector<axis_comm> out;
    for (const auto& it : c.items) {
        auto at = std::find_if(out.begin(), out.end(), [&](const axis_comm& a) { return a.axis == it.axis; });
        if (at == out.end()) at = out.insert(out.end(), axis_comm{.axis = it.axis});
        at->time_s += it.step_time_s();
        at->exposed_s += it.step_exposed_s();
        at->bytes += it.call.bytes * it.count;
        at->count += it.count;
    }
    return out;
}

void write_comm(json_writer& w, const comm_inventory& c) {
    w.begin_object();
    w.field("source", c.source);
    w.field("note", "bytes, time_s and exposed_s are per call; count calls per step; step_* are per step");
    w.key("items").begin_array();
    for (const auto& it : c.items) write_comm_item(w, it);
    w.end_array();
    w.field("step_time_s", c.time_s).field("step_exposed_s", c.exposed_s);
    // What the lab shows per axis and in total (the UI sums no report values).
    const std::vector<axis_comm> axes = axis_sums(c);
    double bytes = 0;
    for (const auto& a : axes) bytes += a.bytes;
    w.field("step_bytes", bytes);
    w.key("axes").begin_array();
    for (const auto& a : axes) {
        w.begin_object();
        w.field("axis", a.axis)
            .field("step_time_s", a.time_s)
            .field("step_exposed_s", a.exposed_s)
            .field("step_bytes", a.bytes)
            .field("count", a.count);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

}  // namespace tslab
