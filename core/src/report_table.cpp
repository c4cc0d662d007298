// Human-readable table of a report for the terminal; GiB and GB are both named.
#include <fmt/format.h>

#include "tslab/report.hpp"
#include "tslab/units.hpp"

namespace tslab {

namespace {
std::string size(double bytes) { return fmt::format("{:9.2f} GiB ({:.1f} GB)", bytes / gib_bytes, bytes / 1e9); }
}  // namespace

std::string report_table(const report& r) {
    const auto& s = r.input;
    const auto& m = r.memory;
    std::string out;
    out += fmt::format("model    {}  params {:.4g}  active {:.4g}  flops/token {:.4g}\n", s.model.name, static_cast<double>(r.params.total),
                       static_cast<double>(r.params.active), r.flops_per_token);
    out += fmt::format("cluster  {} ({}), {} nodes × {} GPUs\n", s.cluster.name, s.cluster.gpu.name, s.cluster.nodes, s.cluster.gpus_per_node);
    out += fmt::format("source   {}\n", s.cluster.source);
    out +=
        fmt::format("plan     dp {} tp {} pp {} vpp {} ep {} etp {} cp {} zero {}  schedule {}  m {}\n", s.parallel.dp, s.parallel.tp, s.parallel.pp,
                    s.parallel.vpp, s.parallel.ep, s.parallel.etp, s.parallel.cp, s.parallel.zero, to_string(s.training.schedule), r.microbatches);
    out += fmt::format("\nmemory of rank {} (pipeline stage {}), the most loaded\n", m.rank, m.stage);
    for (const auto& it : m.items) out += fmt::format("  {:<20} {}   {}\n", it.id, size(it.bytes), it.formula);
    out += fmt::format("  {:<20} {}\n", "total (HBM)", size(m.total_bytes));
    out += fmt::format("  {:<20} {}\n", "capacity", size(m.capacity_bytes));
    out += m.fits ? fmt::format("  fits, {} free\n", size(m.headroom_bytes)) : fmt::format("  DOES NOT FIT: over by {}\n", size(-m.headroom_bytes));
    const auto& st = r.step;
    out += fmt::format("\nstep     {:.4g} s  {:.4g} tokens/s  {:.1f} TFLOP/s per GPU  MFU {:.1f}%  HFU {:.1f}%  goodput {:.3f}\n", st.time_s,
                       st.tokens_per_s, st.tflops_per_gpu, 100 * st.mfu, 100 * st.hfu, st.goodput);
    for (const auto& l : st.ledgers)
        out += fmt::format("  {} {:<12} {:10.4g} s  exposed {:10.4g} s   {}\n", l.id, l.name, l.time_s, l.exposed_s, l.notes);
    out += "  " + st.bottleneck + "\n";
    return out;
}

}  // namespace tslab
