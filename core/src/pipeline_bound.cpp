// The bubble lower bound of a schedule (pipeline_bound.hpp): op counts, first-op ready bounds and
// backward tails per rank, read once from the op lists; evaluated per cost set in O(ranks).
#include "tslab/pipeline_bound.hpp"

#include <algorithm>
#include <cfloat>

namespace tslab {

namespace {

// Durations by op_kind (F, B, I, W, FB), as the simulator takes them (pipeline_sim.cpp precompute).
void durations(const pipeline_costs& c, double (&d)[5]) { d[0] = c.F, d[1] = c.B, d[2] = c.B - c.W, d[3] = c.W, d[4] = c.fb(); }

double dot(const double (&n)[5], const double (&d)[5]) { return n[0] * d[0] + n[1] * d[1] + n[2] * d[2] + n[3] * d[3] + n[4] * d[4]; }

bool completes_backward(op_kind k) { return k == op_kind::B || k == op_kind::I || k == op_kind::FB; }

// The ready bound of a rank's first op (see the header): the forward stage's chain of F, or for a
// backward the whole forward and the backward stages after it. An FB pair counts its forward half.
void head_of(const pipeline_op& o, std::int64_t stages, bubble_bound::rank_terms& r) {
    switch (o.kind) {
        case op_kind::F:
        case op_kind::FB: r.head_F = static_cast<double>(o.stage); break;
        case op_kind::B:
        case op_kind::I:
            r.head_F = static_cast<double>(stages);
            r.head_b = static_cast<double>(stages - 1 - o.stage);
            break;
        case op_kind::W: break;  // never first: its I runs before it on the same rank
    }
}

}  // namespace

bubble_bound bubble_bound_of(const pipeline_schedule& s) {
    bubble_bound b;
    b.ranks.resize(s.rank_ops.size());
    for (std::size_t r = 0; r < s.rank_ops.size(); ++r) {
        const auto& ops = s.rank_ops[r];
        bubble_bound::rank_terms& t = b.ranks[r];
        if (!ops.empty()) head_of(ops.front(), s.stages, t);
        for (const pipeline_op& o : ops) {
            const auto k = static_cast<std::size_t>(o.kind);
            t.busy[k] += 1;
            t.after[k] += 1;
            b.splits = b.splits || o.kind == op_kind::I;
            b.full_backward = b.full_backward || o.kind == op_kind::B;
            if (!completes_backward(o.kind)) continue;
            t.tail_stage = static_cast<double>(o.kind == op_kind::FB ? o.b_stage : o.stage);
            std::fill(std::begin(t.after), std::end(t.after), 0.0);
        }
        b.ops += static_cast<double>(ops.size());
    }
    return b;
}

double bubble_lower_bound(const bubble_bound& b, const pipeline_costs& c) {
    double d[5];
    durations(c, d);
    const double b_min = b.splits ? d[2] : b.full_backward ? d[1] : d[4];
    double makespan = 0, busiest = 0, work = 0;
    for (const auto& r : b.ranks) {
        const double busy = dot(r.busy, d);
        const double tail = std::max(0.0, r.tail_stage * b_min - dot(r.after, d));
        makespan = std::max(makespan, r.head_F * d[0] + r.head_b * b_min + busy + tail);
        busiest = std::max(busiest, busy);
        work += busy;
    }
    work += b.ops * c.p2p_s;
    return std::max(0.0, makespan - busiest - 8 * (b.ops + 1) * DBL_EPSILON * work);
}

}  // namespace tslab
