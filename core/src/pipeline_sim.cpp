// The event-driven walk over a schedule: each rank runs its ops in order, an op starts when its rank
// is free and its inputs have arrived (p2p_s added across ranks). The same walk validates schedules.
#include "tslab/pipeline_sim.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

namespace {

enum : std::uint8_t { f_done = 1, bwd_done = 2, was_split = 4, w_done = 8 };

std::string describe(const pipeline_op& o, std::int64_t r, std::size_t i) {
    return fmt::format("rank {} op {} ({} micro-batch {} stage {})", r, i, to_string(o.kind), o.microbatch, o.stage);
}

// Where an op sits, turned into words only when an error is thrown (the hot path stays cheap).
struct site {
    const pipeline_op& o;
    std::int64_t r;
    std::size_t i;
    bool b_half = false;
    // The message `id` about this op: "rank 1 op 3 (F micro-batch 2 stage 1): ...", with "_half" for
    // the backward half of an FB op when the registry words that variant.
    message says(std::string id, message_args more = {}, bool has_half = true) const {
        message_args args = {{"rank", fmt::format("{}", r)},
                             {"index", fmt::format("{}", i)},
                             {"kind", to_string(o.kind)},
                             {"microbatch", fmt::format("{}", o.microbatch)},
                             {"stage", fmt::format("{}", o.stage)}};
        for (auto& a : more) args.push_back(std::move(a));
        return msg(b_half && has_half ? id + "_half" : id, std::move(args));
    }
};

// The hot loop touches every op a few times, so everything it looks up per op is precomputed:
// stage → (rank, chunk) per direction instead of locate()'s switch and divisions, and op durations
// by kind instead of a switch. Results are unchanged: the same doubles are added in the same order.
struct walker {
    const pipeline_schedule& s;
    const pipeline_costs& c;
    pipeline_timeline* out;  // null: validate only
    std::int64_t second_dir = 0;  // first micro-batch of DualPipe's reverse direction (m otherwise)
    std::vector<std::int32_t> slot_rank{};  // [direction · stages + stage]
    std::vector<std::uint8_t> slot_chunk{};
    double dur[5] = {};
    std::vector<double> f_end{}, b_end{}, free_at{};
    // The shadow lane: the same walk with P2P free (time_schedule's split of the bubble from the
    // exposed P2P). Which op commits next depends only on which inputs are done, never on times,
    // so one walk times both; each lane adds the same doubles in the same order as a walk of its own.
    bool shadow = false;
    std::vector<double> f_end0{}, b_end0{}, free_at0{};
    std::vector<std::uint8_t> state{};
    std::vector<std::size_t> next{};
    std::vector<std::int64_t> alive{};
    std::vector<std::int64_t> stack{};
    std::vector<std::uint8_t> queued{};

    // Stage-major: a rank walks its stages' micro-batches in order, so its reads and writes stream
    // through three adjacent rows (st − 1, st, st + 1) instead of jumping a row of all stages per op.
    std::size_t key(std::int64_t mb, std::int64_t st) const { return static_cast<std::size_t>(st * s.microbatches + mb); }
    std::size_t slot(std::int64_t mb, std::int64_t st) const { return static_cast<std::size_t>((mb >= second_dir ? s.stages : 0) + st); }
    std::int64_t rank_of(std::int64_t mb, std::int64_t st) const { return slot_rank[slot(mb, st)]; }
    void precompute();
    double arrival(double end, std::int64_t from, std::int64_t to) const { return end + (from == to ? 0.0 : c.p2p_s); }

    void check_slot(std::int64_t mb, std::int64_t st, std::int64_t chunk, std::int64_t r, const site& what) const {
        if (mb < 0 || mb >= s.microbatches || st < 0 || st >= s.stages) throw input_error("schedule", what.says("schedule.op_out_of_range"));
        const std::size_t at = slot(mb, st);
        if (slot_rank[at] != r || slot_chunk[at] != chunk)
            throw input_error("schedule",
                              what.says("schedule.op_wrong_slot",
                                        {{"slot_rank", fmt::format("{}", slot_rank[at])}, {"slot_chunk", fmt::format("{}", slot_chunk[at])}}));
    }

    // The common case inline; a misplaced op goes to check_slot() for the exact error.
    bool placed(std::int64_t mb, std::int64_t st, std::int64_t chunk, std::int64_t r) const {
        if (mb < 0 || mb >= s.microbatches || st < 0 || st >= s.stages) return false;
        const std::size_t at = slot(mb, st);
        return slot_rank[at] == r && slot_chunk[at] == chunk;
    }
    [[noreturn]] void misplaced(const pipeline_op& o, std::int64_t r, std::size_t i) const;

    // Ready time of one part, or −1 while an input from another rank is missing.
    double ready_f(std::int64_t mb, std::int64_t st, std::int64_t r, const site& what) const {
        if (state[key(mb, st)] & f_done) throw input_error("schedule", what.says("schedule.forward_twice", {}, false));
        if (st == 0) return 0;
        const std::size_t k = key(mb, st - 1);
        return (state[k] & f_done) ? arrival(f_end[k], rank_of(mb, st - 1), r) : -1;
    }
    double ready_b(std::int64_t mb, std::int64_t st, std::int64_t r, const site& what) const {
        const std::uint8_t here = state[key(mb, st)];
        if (here & bwd_done) throw input_error("schedule", what.says("schedule.backward_twice"));
        if (!(here & f_done)) throw input_error("schedule", what.says("schedule.backward_before_forward"));
        if (st == s.stages - 1) return f_end[key(mb, st)];
        const std::size_t k = key(mb, st + 1);
        return (state[k] & bwd_done) ? arrival(b_end[k], rank_of(mb, st + 1), r) : -1;
    }
    double ready(const pipeline_op& o, std::int64_t r, std::size_t i) const;
    void wake(std::int64_t r) {
        if (queued[static_cast<std::size_t>(r)]) return;
        queued[static_cast<std::size_t>(r)] = 1;
        stack.push_back(r);
    }
    void finish_f(std::int64_t mb, std::int64_t st, std::int64_t r, double end);
    void finish_b(std::int64_t mb, std::int64_t st, std::int64_t r, double end, bool split);
    void commit(const pipeline_op& o, std::int64_t r, std::size_t i, double ready_s);
    void commit_shadow(const pipeline_op& o, std::int64_t r);
    void run_rank(std::int64_t r);
    void run();
    void check_complete() const;
};

double walker::ready(const pipeline_op& o, std::int64_t r, std::size_t i) const {
    const site what{o, r, i};
    switch (o.kind) {
        case op_kind::F: return ready_f(o.microbatch, o.stage, r, what);
        case op_kind::B:
        case op_kind::I: return ready_b(o.microbatch, o.stage, r, what);
        case op_kind::W: {
            const std::uint8_t st = state[key(o.microbatch, o.stage)];
            if (st & w_done) throw input_error("schedule", what.says("schedule.w_twice", {}, false));
            if (!(st & bwd_done) || !(st & was_split)) throw input_error("schedule", what.says("schedule.w_without_i", {}, false));
            return b_end[key(o.microbatch, o.stage)];
        }
        case op_kind::FB: {
            const double f = ready_f(o.microbatch, o.stage, r, what);
            const double b = ready_b(o.b_microbatch, o.b_stage, r, site{o, r, i, true});
            return (f < 0 || b < 0) ? -1 : std::max(f, b);
        }
    }
    return -1;
}

void walker::finish_f(std::int64_t mb, std::int64_t st, std::int64_t r, double end) {
    const std::size_t k = key(mb, st);
    f_end[k] = end;
    state[k] |= f_done;
    const std::size_t ri = static_cast<std::size_t>(r);
    if (++alive[ri] > (out ? out->ranks[ri].peak_inflight : 0) && out) out->ranks[ri].peak_inflight = alive[ri];
    if (st + 1 < s.stages) wake(rank_of(mb, st + 1));
}

void walker::finish_b(std::int64_t mb, std::int64_t st, std::int64_t r, double end, bool split) {
    const std::size_t k = key(mb, st);
    b_end[k] = end;
    state[k] |= split ? bwd_done | was_split : bwd_done;
    if (!split) --alive[static_cast<std::size_t>(r)];
    if (st > 0) wake(rank_of(mb, st - 1));
}

// The op in the shadow lane: its inputs are done (commit's walk checked them), and arrive with no P2P.
void walker::commit_shadow(const pipeline_op& o, std::int64_t r) {
    const auto f_ready = [&](std::int64_t mb, std::int64_t st) { return st == 0 ? 0.0 : f_end0[key(mb, st - 1)]; };
    const auto b_ready = [&](std::int64_t mb, std::int64_t st) { return st == s.stages - 1 ? f_end0[key(mb, st)] : b_end0[key(mb, st + 1)]; };
    double ready_s = 0;
    switch (o.kind) {
        case op_kind::F: ready_s = f_ready(o.microbatch, o.stage); break;
        case op_kind::B:
        case op_kind::I: ready_s = b_ready(o.microbatch, o.stage); break;
        case op_kind::W: ready_s = b_end0[key(o.microbatch, o.stage)]; break;
        case op_kind::FB: ready_s = std::max(f_ready(o.microbatch, o.stage), b_ready(o.b_microbatch, o.b_stage)); break;
    }
    double& free = free_at0[static_cast<std::size_t>(r)];
    const double end = std::max(free, ready_s) + dur[static_cast<int>(o.kind)];
    free = end;
    if (o.kind == op_kind::F || o.kind == op_kind::FB) f_end0[key(o.microbatch, o.stage)] = end;
    if (o.kind == op_kind::B || o.kind == op_kind::I) b_end0[key(o.microbatch, o.stage)] = end;
    if (o.kind == op_kind::FB) b_end0[key(o.b_microbatch, o.b_stage)] = end;
}

void walker::commit(const pipeline_op& o, std::int64_t r, std::size_t i, double ready_s) {
    if (shadow) commit_shadow(o, r);
    const std::size_t ri = static_cast<std::size_t>(r);
    const double start = std::max(free_at[ri], ready_s), end = start + dur[static_cast<int>(o.kind)];
    free_at[ri] = end;
    if (out) {
        out->times[ri][i] = {start, end};
        out->ranks[ri].busy_s += end - start;
    }
    switch (o.kind) {
        case op_kind::F: finish_f(o.microbatch, o.stage, r, end); break;
        case op_kind::B: finish_b(o.microbatch, o.stage, r, end, false); break;
        case op_kind::I: finish_b(o.microbatch, o.stage, r, end, true); break;
        case op_kind::W:
            state[key(o.microbatch, o.stage)] |= w_done;
            --alive[ri];
            break;
        case op_kind::FB:
            finish_f(o.microbatch, o.stage, r, end);
            finish_b(o.b_microbatch, o.b_stage, r, end, false);
            break;
    }
}

void walker::precompute() {
    // op_kind order F, B, I, W, FB; I is the input-gradient part B − W (Qi et al. arXiv 2401.10241).
    const double by_kind[5] = {c.F, c.B, c.B - c.W, c.W, c.fb()};
    std::copy(by_kind, by_kind + 5, dur);
    const bool dual = s.placement == stage_placement::dual;
    second_dir = dual ? s.microbatches / 2 : s.microbatches;
    const std::size_t n = static_cast<std::size_t>(2 * s.stages);
    slot_rank.resize(n);
    slot_chunk.resize(n);
    for (std::int64_t dir = 0; dir < 2; ++dir)
        for (std::int64_t st = 0; st < s.stages; ++st) {
            const stage_slot at = locate(s, dir == 1 && dual ? second_dir : 0, st);
            slot_rank[static_cast<std::size_t>(dir * s.stages + st)] = static_cast<std::int32_t>(at.rank);
            slot_chunk[static_cast<std::size_t>(dir * s.stages + st)] = static_cast<std::uint8_t>(at.chunk);
        }
}

void walker::misplaced(const pipeline_op& o, std::int64_t r, std::size_t i) const {
    check_slot(o.microbatch, o.stage, o.chunk, r, site{o, r, i});
    check_slot(o.b_microbatch, o.b_stage, o.b_chunk, r, site{o, r, i, true});
    throw input_error("schedule", site{o, r, i}.says("schedule.op_misplaced", {}, false));  // not reached: one of the two throws
}

void walker::run_rank(std::int64_t r) {
    const std::size_t ri = static_cast<std::size_t>(r);
    const auto& ops = s.rank_ops[ri];
    const std::size_t n = ops.size();
    std::size_t i = next[ri];
    for (; i < n; ++i) {
        const pipeline_op& o = ops[i];
        if (!placed(o.microbatch, o.stage, o.chunk, r) || (o.kind == op_kind::FB && !placed(o.b_microbatch, o.b_stage, o.b_chunk, r)))
            next[ri] = i, misplaced(o, r, i);
        const double t = ready(o, r, i);
        if (t < 0) break;  // waits for another rank; woken when that input lands
        commit(o, r, i, t);
    }
    next[ri] = i;
}

void walker::run() {
    const std::size_t p = s.rank_ops.size(), cells = static_cast<std::size_t>(s.microbatches * s.stages);
    precompute();
    f_end.assign(cells, 0);
    b_end.assign(cells, 0);
    state.assign(cells, 0);
    free_at.assign(p, 0);
    if (shadow) f_end0.assign(cells, 0), b_end0.assign(cells, 0), free_at0.assign(p, 0);
    next.assign(p, 0);
    alive.assign(p, 0);
    queued.assign(p, 1);
    for (std::size_t r = p; r-- > 0;) stack.push_back(static_cast<std::int64_t>(r));
    while (!stack.empty()) {
        const std::int64_t r = stack.back();
        stack.pop_back();
        queued[static_cast<std::size_t>(r)] = 0;
        run_rank(r);
    }
    std::string stuck;
    for (std::size_t r = 0; r < p; ++r)
        if (next[r] < s.rank_ops[r].size() && stuck.size() < 300)
            stuck += (stuck.empty() ? "" : "; ") + describe(s.rank_ops[r][next[r]], static_cast<std::int64_t>(r), next[r]);
    if (!stuck.empty()) throw input_error("schedule", msg("schedule.deadlock", {{"ops", stuck}}));
    check_complete();
}

void walker::check_complete() const {
    for (std::int64_t mb = 0; mb < s.microbatches; ++mb)
        for (std::int64_t st = 0; st < s.stages; ++st) {
            const std::uint8_t v = state[key(mb, st)];
            const bool ok = (v & f_done) && (v & bwd_done) && (!(v & was_split) || (v & w_done));
            if (!ok)
                throw input_error("schedule",
                                  msg(!(v & f_done)         ? "schedule.never_completes_f"
                                          : !(v & bwd_done) ? "schedule.never_completes_backward"
                                                            : "schedule.never_completes_w",
                                      {{"microbatch", fmt::format("{}", mb)}, {"stage", fmt::format("{}", st)}}));
        }
}

}  // namespace

void check_costs(const pipeline_costs& c) {
    const std::pair<const char*, double> all[] = {{"costs.F", c.F}, {"costs.B", c.B}, {"costs.W", c.W}, {"costs.FB", c.FB}, {"p2p_s", c.p2p_s}};
    for (const auto& [path, v] : all) {
        if (!std::isfinite(v)) throw input_error(path, msg("schedule.cost_not_finite"));
        if (v < 0 && std::string(path) != "costs.FB") throw input_error(path, msg("schedule.cost_negative", {{"value", fmt::format("{:g}", v)}}));
    }
    if (c.W > c.B) throw input_error("costs.W", msg("schedule.w_exceeds_b", {{"w", fmt::format("{:g}", c.W)}, {"b", fmt::format("{:g}", c.B)}}));
    if (c.fb() > c.F + c.B)
        throw input_error("costs.FB", msg("schedule.fb_exceeds_sum", {{"fb", fmt::format("{:g}", c.fb())}, {"sum", fmt::format("{:g}", c.F + c.B)}}));
    if (c.fb() < std::max(c.F, c.B))
        throw input_error("costs.FB",
                          msg("schedule.fb_below_max", {{"fb", fmt::format("{:g}", c.fb())}, {"max", fmt::format("{:g}", std::max(c.F, c.B))}}));
}

void validate_schedule(const pipeline_schedule& s) {
    const pipeline_costs unit;
    walker w{.s = s, .c = unit, .out = nullptr};
    w.run();
}

pipeline_timeline simulate_pipeline(const pipeline_schedule& s, const pipeline_costs& c) { return simulate_pipeline(s, c, nullptr); }

pipeline_timeline simulate_pipeline(const pipeline_schedule& s, const pipeline_costs& c, double* makespan_no_p2p_s) {
    check_costs(c);
    pipeline_timeline t;
    t.param_copies = s.param_copies;
    t.ranks.resize(s.rank_ops.size());
    t.times.resize(s.rank_ops.size());
    for (std::size_t r = 0; r < s.rank_ops.size(); ++r) t.times[r].resize(s.rank_ops[r].size());
    walker w{.s = s, .c = c, .out = &t};
    w.shadow = makespan_no_p2p_s != nullptr;
    w.run();
    if (makespan_no_p2p_s) {
        // As simulate_pipeline with p2p_s = 0 takes it: the latest last op of a rank that has ops.
        *makespan_no_p2p_s = 0;
        for (std::size_t r = 0; r < t.times.size(); ++r)
            if (!t.times[r].empty()) *makespan_no_p2p_s = std::max(*makespan_no_p2p_s, w.free_at0[r]);
    }
    double busy = 0;
    for (std::size_t r = 0; r < t.times.size(); ++r) {
        if (!t.times[r].empty()) {
            t.ranks[r].span_s = t.times[r].back().end_s - t.times[r].front().start_s;
            t.makespan_s = std::max(t.makespan_s, t.times[r].back().end_s);
        }
        busy += t.ranks[r].busy_s;
    }
    const double capacity = t.makespan_s * static_cast<double>(t.times.size());
    t.bubble_fraction = capacity > 0 ? 1.0 - busy / capacity : 0.0;
    return t;
}

}  // namespace tslab
