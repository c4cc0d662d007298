// Checkpoint size and write time, MTBF, Young/Daly intervals and goodput.
// Young, "A first order approximation to the optimum checkpoint interval", CACM 17(9), 1974;
// Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps", FGCS 22, 2006.
#include "tslab/reliability.hpp"

#include <algorithm>
#include <cmath>

#include "tslab/memory.hpp"
#include "tslab/params.hpp"

namespace tslab {

checkpoint_size checkpoint_bytes(const scenario& s) {
    const auto& p = s.training.precision;
    const auto& m = s.model;
    const double moe = static_cast<double>(moe_layer_count(m)), dense = static_cast<double>(m.layers) - moe;
    checkpoint_size c;
    double elems = 0, states = 0;
    for (const auto& t : tensor_list(m)) {
        const double layers = t.site != tensor_site::layer ? 1.0
            : t.layers == layer_kind::moe                  ? moe
            : t.layers == layer_kind::dense                ? dense
                                                           : static_cast<double>(m.layers);
        elems += static_cast<double>(t.elements()) * layers;
        states += optimizer_state_elems(s.training.optimizer, t.matrix() && t.site == tensor_site::layer, static_cast<double>(t.rows),
                                        static_cast<double>(t.cols), static_cast<double>(t.copies)) *
            layers;
    }
    c.params = elems * static_cast<double>(dtype_bytes(p.params));
    c.master = elems * static_cast<double>(dtype_bytes(p.master));
    c.optimizer = states * static_cast<double>(dtype_bytes(p.optimizer));
    return c;
}

double checkpoint_write_s(double bytes, double storage_Bps) { return bytes / storage_Bps; }

double failure_rate_per_gpu_s(double failures, double days, double gpus) { return failures / (days * 86400.0 * gpus); }

double job_mtbf_s(double rate_per_gpu_s, double gpus) { return 1.0 / (rate_per_gpu_s * gpus); }

double young_interval_s(double delta_s, double mtbf_s) { return std::sqrt(2 * delta_s * mtbf_s); }

double daly_interval_s(double delta_s, double mtbf_s) {
    if (delta_s >= 2 * mtbf_s) return mtbf_s;
    const double x = delta_s / (2 * mtbf_s);
    return std::sqrt(2 * delta_s * mtbf_s) * (1 + std::sqrt(x) / 3 + x / 9) - delta_s;
}

double expected_goodput(double interval_s, double delta_s, double restart_s, double mtbf_s) {
    const double M = mtbf_s;
    return interval_s / (M * std::exp(restart_s / M) * std::expm1((interval_s + delta_s) / M));
}

reliability_report reliability_ledger(const scenario& s, double storage_Bps, double rate_per_gpu_s, double restart_s) {
    reliability_report r;
    r.checkpoint = checkpoint_bytes(s);
    r.write_s = checkpoint_write_s(r.checkpoint.total(), storage_Bps);
    r.mtbf_s = job_mtbf_s(rate_per_gpu_s, static_cast<double>(s.parallel.world()));
    r.interval_s = daly_interval_s(r.write_s, r.mtbf_s);
    r.goodput = expected_goodput(r.interval_s, r.write_s, restart_s, r.mtbf_s);
    return r;
}

reliability_report checkpoint_policy(const checkpoint_inputs& in) {
    reliability_report r;
    r.async = in.async;
    r.snapshot_bytes_per_gpu = in.snapshot_bytes_per_gpu;
    r.write_s = checkpoint_write_s(in.total_bytes, in.storage_Bps);
    r.snapshot_s = in.snapshot_bytes_per_gpu / in.host_Bps;
    r.blocking_s = in.async ? r.snapshot_s : r.write_s;
    r.mtbf_s = job_mtbf_s(in.rate_per_gpu_s, in.gpus);
    r.young_s = young_interval_s(r.blocking_s, r.mtbf_s);
    r.daly_s = daly_interval_s(r.blocking_s, r.mtbf_s);
    r.interval_s = in.interval_s > 0 ? in.interval_s : r.daly_s;
    if (in.async) r.interval_s = std::max(r.interval_s, r.write_s);  // one write in flight at a time
    r.restart_total_s = in.restart_s + r.write_s;  // reading back at the storage bandwidth
    r.goodput = expected_goodput(r.interval_s, r.blocking_s, r.restart_total_s, r.mtbf_s);
    return r;
}

reliability_report reliability_of_scenario(const scenario& s, double snapshot_bytes_per_gpu) {
    const auto& r = s.training.reliability;
    const double world = static_cast<double>(s.parallel.world());
    checkpoint_inputs in;
    const checkpoint_size c = checkpoint_bytes(s);
    in.total_bytes = c.total();
    in.snapshot_bytes_per_gpu = snapshot_bytes_per_gpu;
    in.storage_Bps = r.checkpoint_storage_Bps;
    in.host_Bps = s.cluster.host.bandwidth_Bps;
    in.rate_per_gpu_s = r.job_mtbf_s > 0 ? 1.0 / (r.job_mtbf_s * world) : r.gpu_failure_rate_per_hour / 3600.0;
    in.gpus = world;
    in.restart_s = r.restart_s;
    in.interval_s = r.checkpoint_interval_s;
    in.async = r.async_checkpoint;
    reliability_report out = checkpoint_policy(in);
    out.checkpoint = c;
    return out;
}

}  // namespace tslab
