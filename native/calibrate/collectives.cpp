// The collective sweep: for each group × op × size, check the result, then time it over repeats.
#include "collectives.hpp"

#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "pattern.hpp"

namespace tslab::calibrate {

namespace {

const char* redop_of(collective_op op) {
    return op == collective_op::allreduce || op == collective_op::reducescatter || op == collective_op::reduce ? "sum"
                                                                                                               : "none";
}

int root_of(collective_op op) { return op == collective_op::broadcast || op == collective_op::reduce ? 0 : -1; }

// One point of the sweep; returns false when the ranks agreed to stop before it.
bool one_point(world& w, collective_runner& r, const options& o, collective_op op, const group& g,
               std::int64_t bytes, recorder& rec) {
    if (stopper().agreed(w)) return false;
    const std::int64_t count = count_for(op, g.size, bytes);
    if (count == 0) return true;  // fewer elements than ranks
    const std::int64_t size = count * 4;
    r.prepare(op, g, count, rotations_for(size));
    const std::int64_t wrong = w.sum(r.check(op, g, count));
    timing t;
    if (wrong == 0) {
        if (o.warmup > 0) r.run(op, g, count, o.warmup);
        t = measure(w, o.repeats, [&] { return r.run(op, g, count, o.iters); });
    }
    const double algbw = wrong == 0 ? static_cast<double>(size) / t.median_s : 0;
    const double busbw = algbw * describe(op).busbw_factor(g.size);
    if (w.rank == 0) {
        std::fputs(table_row(size, count, "float", redop_of(op), root_of(op), t.median_s, algbw, busbw, wrong).c_str(), stdout);
        std::fflush(stdout);
        // A result that failed its check is printed (as nccl-tests does) but never recorded.
        if (wrong == 0) rec.add_collective(op, g, r.in_place(op), r.timer(), {size, t.median_s, algbw, busbw, t.min_s, t.max_s});
    }
    return true;
}

}  // namespace

bool sweep_collectives(world& w, collective_runner& r, const options& o, const std::vector<std::int64_t>& sizes,
                       recorder& rec, progress& bar) {
    const auto groups = w.partitions();
    for (const auto& g : groups)
        for (collective_op op : o.ops) {
            if (w.rank == 0) {
                const std::string title = fmt::format("{}: {}, {}, timer {}", describe(op).name, g.label(),
                                                      r.in_place(op) ? "in-place" : "out-of-place", r.timer());
                std::fputs(table_header(title).c_str(), stdout);
            }
            for (std::int64_t bytes : sizes) {
                if (!one_point(w, r, o, op, g, bytes, rec)) return false;
                if (w.rank == 0) bar.step(fmt::format("{} {} {}", describe(op).name, g.label(), format_size(bytes)));
            }
        }
    return true;
}

}  // namespace tslab::calibrate
