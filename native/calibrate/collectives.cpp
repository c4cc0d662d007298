// The collective sweep: for each group × op × size, out of place then in place: check, time, print, record.
#include "collectives.hpp"

#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "control.hpp"
#include "faults.hpp"
#include "pattern.hpp"

namespace tslab::calibrate {

namespace {

bool reduces(collective_op op) { return op == collective_op::allreduce || op == collective_op::reducescatter || op == collective_op::reduce; }
bool rooted(collective_op op) { return op == collective_op::broadcast || op == collective_op::reduce; }

// The footer's inputs: nccl-tests averages busbw over every row, out-of-place and in-place alike.
struct table_totals {
    double busbw_sum = 0;
    std::int64_t results = 0, rows_with_errors = 0;
};

// One placement of one point: check (-c times), warm up, time. `stopped` when the ranks agreed to stop.
placement_result one_placement(world& w, collective_runner& r, const options& o, collective_op op, const group& g, std::int64_t count, bool in_place,
                               bool& stopped) {
    placement_result res;
    res.checked = o.check_iters > 0;
    for (int c = 0; c < o.check_iters && res.wrong == 0; ++c) res.wrong = w.sum(r.check(op, g, count, in_place));
    if (res.wrong != 0) return res;
    if (o.warmup > 0) r.run(op, g, count, o.warmup, in_place);
    const timing t = measure(w, o.repeats, o.average, [&] { return r.run(op, g, count, o.iters, in_place); });
    if (t.stopped) return stopped = true, res;
    res.time_s = t.median_s, res.algbw_Bps = static_cast<double>(count * 4) / t.median_s;
    res.busbw_Bps = res.algbw_Bps * describe(op).busbw_factor(g.size);
    res.wrong = 0;
    return res;
}

// One point of the sweep; returns false when the ranks agreed to stop.
bool one_point(world& w, collective_runner& r, const options& o, collective_op op, const group& g, std::int64_t bytes, recorder& rec,
               table_totals& totals) {
    if (stopper().agreed(w)) return false;
    const std::int64_t count = count_for(op, g.size, bytes);
    if (count == 0) return true;  // fewer elements than ranks × 16 bytes
    point_begin(fmt::format("{} ({}) at {} B", describe(op).name, g.label(), count * 4));
    inject_fault(w.rank, describe(op).name);
    const check_params p{o.root % g.size, o.redop};
    r.prepare(op, g, count, rotations_for(count * 4), p);
    bool stopped = false;
    const placement_result out = one_placement(w, r, o, op, g, count, false, stopped);
    const placement_result in = stopped ? placement_result{} : one_placement(w, r, o, op, g, count, true, stopped);
    point_end();
    if (stopped) return false;
    totals.busbw_sum += out.busbw_Bps + in.busbw_Bps, totals.results += 2;
    totals.rows_with_errors += (out.wrong || in.wrong) ? 1 : 0;
    if (w.rank == 0) {
        std::fputs(
            table_row(count * 4, count_column(op, g.size, count), "float", reduces(op) ? o.redop.c_str() : "none", rooted(op) ? p.root : -1, out, in)
                .c_str(),
            stdout);
        std::fflush(stdout);
        // A result that failed its check is printed (as nccl-tests does) but never recorded.
        if (out.wrong == 0)
            rec.add_collective(op, g, r.in_place(op), r.timer(), {count * 4, out.time_s, out.algbw_Bps, out.busbw_Bps, out.time_s, out.time_s});
    }
    return true;
}

}  // namespace

bool sweep_collectives(world& w, collective_runner& r, const options& o, const std::vector<std::int64_t>& sizes, recorder& rec, progress& bar) {
    for (const auto& g : w.partitions())
        for (collective_op op : o.ops) {
            if (w.rank == 0) {
                const std::string how = op == collective_op::alltoall ? ", " + r.alltoall_impl() : "";
                std::fputs(
                    table_header(fmt::format("{}: {}, timer {}, time across ranks -a {}{}", describe(op).name, g.label(), r.timer(), o.average, how))
                        .c_str(),
                    stdout);
            }
            table_totals totals;
            for (std::int64_t bytes : sizes) {
                if (!one_point(w, r, o, op, g, bytes, rec, totals)) return false;
                if (w.rank == 0) bar.step(fmt::format("{} {} {}", describe(op).name, g.label(), format_size(bytes)));
            }
            const double avg = totals.results ? totals.busbw_sum / static_cast<double>(totals.results) : 0;
            if (w.rank == 0) std::fputs(table_footer(totals.rows_with_errors, avg).c_str(), stdout), std::fflush(stdout);
        }
    return true;
}

}  // namespace tslab::calibrate
