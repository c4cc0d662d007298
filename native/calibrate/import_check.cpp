// What one nccl-tests results table measured: its op, ranks and nodes, and whether its bandwidth
// columns agree with them (the checks `tslab-calibrate import` makes before it fits a table).
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "import.hpp"
#include "tslab/errors.hpp"

namespace tslab::calibrate {

namespace {

// The most ranks a table may claim: the planner's GPU limit.
constexpr std::int64_t max_ranks = 65536;

std::string where(const nccl_tests_table& t) { return fmt::format("{}:{}", t.file, t.line); }

// nccl-tests prints busbw = algbw × factor(n) (src/*.cu GetBw); a log whose ratio disagrees with
// the op and rank count we assume was read wrongly (or --op / --ranks are wrong).
void check_factor(const nccl_tests_table& t, collective_op op, std::int64_t n) {
    const double want = describe(op).busbw_factor(static_cast<double>(n));
    for (const auto& r : t.rows)
        if (r.algbw_GBps >= 1.0 && std::abs(r.busbw_GBps / r.algbw_GBps - want) > 0.02 * want + 0.01 / r.algbw_GBps)
            throw input_error(fmt::format("{}:{}", t.file, r.line),
                              msg("calibrate.busbw_factor",
                                  {{"ratio", fmt::format("{:.3f}", r.busbw_GBps / r.algbw_GBps)},
                                   {"op", std::string(describe(op).name)},
                                   {"ranks", std::to_string(n)},
                                   {"factor", fmt::format("{:.3f}", want)}}));
}

// The log's rank list, else --ranks, else the ops that split the buffer print count = size/4/n
// (float elements): n = (size / 4) / count, divided in that order so no product can overflow.
std::int64_t ranks_of(const nccl_tests_table& t, collective_op op, const import_options& o) {
    if (t.ranks > 0) return t.ranks;
    if (o.ranks > 0) return o.ranks;
    const bool splits = op == collective_op::allgather || op == collective_op::reducescatter || op == collective_op::alltoall;
    for (const auto& r : t.rows)
        if (splits && r.count > 0 && r.bytes % 4 == 0 && (r.bytes / 4) % r.count == 0) return r.bytes / 4 / r.count;
    throw input_error(where(t), msg("calibrate.no_rank_list"));
}

std::int64_t nodes_of(const nccl_tests_table& t, const import_options& o) {
    if (!t.hosts.empty()) return static_cast<std::int64_t>(t.hosts.size());
    if (o.nodes > 0) return o.nodes;
    throw input_error(where(t), msg("calibrate.no_node_list"));
}

}  // namespace

table_shape resolve_table(const nccl_tests_table& t, const import_options& o) {
    table_shape s;
    s.name = t.op.empty() ? o.op : t.op;
    if (s.name.empty()) throw input_error(where(t), msg("calibrate.no_test_name"));
    const auto op = collective_from_name(s.name);
    if (!op) throw input_error("--op", msg("calibrate.unknown_op", {{"name", s.name}}));
    s.op = *op;
    s.ranks = ranks_of(t, s.op, o), s.nodes = nodes_of(t, o);
    for (const auto& [value, what] : {std::pair{s.ranks, "ranks"}, std::pair{s.nodes, "nodes"}})
        if (value > max_ranks)
            throw input_error(
                where(t),
                msg("calibrate.table_out_of_range", {{"what", what}, {"value", std::to_string(value)}, {"max", std::to_string(max_ranks)}}));
    check_factor(t, s.op, s.ranks);
    return s;
}

}  // namespace tslab::calibrate
