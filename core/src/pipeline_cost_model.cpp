// The FLOPs/peak estimate of per-chunk op costs from a scenario (to be replaced by the step-time model).
#include "tslab/pipeline_cost_model.hpp"

namespace tslab {

schedule_request scenario_schedule_request(const scenario& s, std::int64_t microbatches) {
    schedule_request q;
    q.kind = s.training.schedule;
    q.ranks = s.parallel.pp;
    q.microbatches = microbatches;
    q.vpp = s.parallel.vpp;
    return q;
}

pipeline_costs scenario_pipeline_costs(const scenario& s, const param_counts& c, std::int64_t stages) {
    const double tokens = static_cast<double>(s.training.micro_batch * s.training.seq_len);
    const double split = static_cast<double>(s.parallel.tp * s.parallel.cp * stages);
    const double flops = 6.0 * static_cast<double>(c.active) * tokens / split;  // forward + backward of one chunk
    const double peak = s.cluster.gpu.peak_flops(dtype::bf16);
    pipeline_costs k;
    k.F = peak > 0 ? flops / 3.0 / peak : 0.0;
    k.B = 2.0 * k.F;
    k.W = k.B / 2.0;
    k.FB = -1;  // F + B: no overlap credit in this estimate
    return k;
}

}  // namespace tslab
