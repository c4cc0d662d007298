// Narayanan et al. (arXiv 2104.04473) Table 1 rows, their scenarios and predictions.
// Table 1 lists t, p, GPU count and batch size but neither the micro-batch size nor the number of
// interleaved chunks v; section 5.1 says all runs use the interleaved schedule with scatter/gather.
// We assume micro-batch 1 and v = the smallest divisor above 1 of the layers per stage.
#include "tslab/validation_narayanan.hpp"

#include <algorithm>
#include <cmath>

#include "tslab/report.hpp"

namespace tslab {

const std::vector<narayanan_row>& narayanan_table1() {
    // model, t, p, GPUs, batch, TF/s per GPU (Table 1), v (assumed: layers per stage 24 15 10 6 3 2).
    static const std::vector<narayanan_row> rows = {
        {"gpt-1.7b", 1, 1, 32, 512, 137, 1},      {"gpt-3.6b", 2, 1, 64, 512, 138, 1},       {"gpt-7.5b", 4, 1, 128, 512, 142, 1},
        {"gpt-18.4b", 8, 1, 256, 1024, 135, 1},   {"gpt-39.1b", 8, 2, 512, 1536, 138, 2},    {"gpt-76.1b", 8, 4, 1024, 1792, 140, 3},
        {"gpt-145.6b", 8, 8, 1536, 2304, 148, 2}, {"gpt-310.1b", 8, 16, 1920, 2160, 155, 2}, {"gpt-530b", 8, 35, 2520, 2520, 163, 3},
        {"gpt-1t", 8, 64, 3072, 3072, 163, 2},
    };
    return rows;
}

scenario narayanan_scenario(const narayanan_row& r) {
    const std::int64_t dp = r.gpus / (r.tp * r.pp);
    json doc = {{"model", r.model},
                {"cluster", "dgx-a100-80gb"},
                {"parallel", {{"dp", dp}, {"tp", r.tp}, {"pp", r.pp}, {"vpp", r.vpp}}},
                {"training",
                 {{"seq_len", 2048},
                  {"micro_batch", 1},
                  {"global_batch", r.batch},
                  {"recompute", "full"},
                  {"flash_attention", false},
                  {"precision", "fp16-mixed"},
                  {"schedule", to_string(r.vpp > 1 ? schedule_kind::interleaved : schedule_kind::one_f_one_b)}}}};
    return parse_scenario(doc);
}

double narayanan_flops(double B, double s, double l, double h, double V) { return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h)); }

narayanan_prediction predict_narayanan(const narayanan_row& r) { return predict_narayanan(r, narayanan_scenario(r)); }

narayanan_prediction predict_narayanan(const narayanan_row& r, const scenario& s) {
    narayanan_prediction p;
    p.step = build_report(s, 0).step;
    const auto& m = s.model;
    p.flops = narayanan_flops(static_cast<double>(r.batch), static_cast<double>(s.training.seq_len), static_cast<double>(m.layers),
                              static_cast<double>(m.hidden), static_cast<double>(m.vocab));
    p.predicted_tflops = p.flops / (p.step.time_s * static_cast<double>(r.gpus)) / 1e12;
    p.error = p.predicted_tflops / r.published_tflops - 1;
    return p;
}

}  // namespace tslab
