// The step's communication inventory (ledgers L5-L7): every collective of one training step with
// its group, size, frequency, time and the time left exposed after overlap.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tslab/collectives.hpp"
#include "tslab/mesh.hpp"
#include "tslab/params.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

struct comm_item {
    std::string what;
    std::string_view axis;  // dp, edp (expert data-parallel), tp, pp, ep, cp (string literals)
    std::string_view per;  // step | layer/micro-batch | MoE layer/micro-batch | micro-batch (string literals)
    double count = 0;  // calls per step on the most loaded pipeline stage
    double overlap = 0;
    collective_estimate call;  // one call: bytes, wire bytes, rounds, link, time, algbw, busbw
    // Share of the calls made in the forward pass (the rest in backward, recompute included);
    // the per-layer TP, CP and EP items enter the pipeline's chunk costs split this way.
    double forward_share = 0.5;
    // A ring-attention K/V block pass: it runs under the previous block's attention kernel, and
    // apply_cp_overlap sets its overlap from that kernel's time (cp_overlap.hpp).
    bool ring_block = false;
    double step_time_s() const { return call.time_s * count; }
    double step_exposed_s() const { return step_time_s() * (1.0 - overlap); }
};

// Communication of one axis over the step, after overlap (summed from the comm inventory).
struct axis_comm {
    std::string_view axis;  // "dp", "edp", "tp", "pp", "ep", "cp" (string literals, as comm_item::axis)
    double time_s = 0, exposed_s = 0, bytes = 0, count = 0;  // per step; count: calls
    bool operator==(const axis_comm&) const = default;
};

struct comm_inventory {
    std::string source;  // where the link numbers come from
    std::vector<comm_item> items;
    double time_s = 0, exposed_s = 0;  // per step, summed over items
    // Sums time_s and exposed_s over the items again (after an overlap pass changed some).
    void sum_items() {
        time_s = exposed_s = 0;
        for (const auto& it : items) time_s += it.step_time_s(), exposed_s += it.step_exposed_s();
    }
};

// The mesh inputs of a scenario.
mesh_spec mesh_spec_of(const scenario& s);

// item_text false leaves every item's `what` and the inventory's `source` empty: the planner reads
// only the numbers, and the sentences cost more to build than the rest of an item.
comm_inventory build_comm_inventory(const scenario& s, const mesh_layout& m, const param_counts& pc, bool item_text = true);
// The items of the EP and CP axes only, the same as build_comm_inventory's (the others are
// neither built nor timed): what a search needs for a bound that reads those two axes.
comm_inventory build_ep_cp_inventory(const scenario& s, const mesh_layout& m, const param_counts& pc, bool item_text = true);

// The items summed per axis, in the order the axes first appear (step_model.hpp axis_totals takes
// what EP pairs hide from these; the report writes them as comm.axes).
std::vector<axis_comm> axis_sums(const comm_inventory& c);

// The inventory as a JSON object (the report's comm section).
void write_comm(json_writer& w, const comm_inventory& c);

}  // namespace tslab
