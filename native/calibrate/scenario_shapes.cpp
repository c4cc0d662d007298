// A scenario's per-rank GEMM shapes and message sizes, so that --scenario measures what it will run.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "probes.hpp"
#include "tslab/errors.hpp"
#include "tslab/scenario.hpp"

namespace tslab::calibrate {

workload scenario_workload(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw input_error("--scenario", msg("calibrate.cannot_open_path", {{"path", path}}));
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string text = ss.str();
    const scenario s = parse_scenario_text(text);
    const auto& m = s.model;
    const auto& p = s.parallel;
    const std::int64_t t = s.training.micro_batch * s.training.seq_len / p.cp;  // tokens per rank
    const std::int64_t attn = m.heads * m.head_dim, kv = 2 * m.kv_heads * m.head_dim;
    const std::int64_t up = m.ffn == ffn_kind::swiglu ? 2 * m.ffn_hidden : m.ffn_hidden;
    workload w;
    w.content_hash = 1469598103934665603ULL;
    for (unsigned char c : text) w.content_hash = (w.content_hash ^ c) * 1099511628211ULL;
    // Megatron's column- then row-parallel split (Shoeybi et al., arXiv 1909.08053, section 3).
    w.gemms = {{t, (attn + kv) / p.tp, m.hidden, "qkv"},
               {t, m.hidden, attn / p.tp, "attn-out"},
               {t, up / p.tp, m.hidden, "fc1"},
               {t, m.hidden, m.ffn_hidden / p.tp, "fc2"},
               {t, m.vocab / p.tp, m.hidden, "logits"}};
    if (m.is_moe()) {
        const std::int64_t rows = std::max<std::int64_t>(1, t * m.moe.top_k / m.moe.experts * p.ep);
        const std::int64_t e_up = (m.ffn == ffn_kind::swiglu ? 2 : 1) * m.moe.expert_ffn_hidden / p.etp;
        w.gemms.push_back({rows, e_up, m.hidden, "expert-fc1"});
        w.gemms.push_back({rows, m.hidden, m.moe.expert_ffn_hidden / p.etp, "expert-fc2"});
    }
    const std::int64_t act = t * m.hidden * 2;  // bf16 activations of one micro-batch
    if (p.tp > 1) w.message_bytes.push_back(act);
    if (p.dp > 1) w.message_bytes.push_back(25LL << 20);
    if (m.is_moe() && p.ep > 1) w.message_bytes.push_back(act * m.moe.top_k);
    return w;
}

std::string probe_header(const std::string& title) {
    return fmt::format("#\n# {}\n#\n# {:>10} {:>12} {:>10} {:>10} {:>10} {:>9}\n# {:>10} {:>12} {:>10} {:>10} {:>10} {:>9}\n", title, "probe", "size",
                       "time", "min", "max", "bw", "", "(B)", "(us)", "(us)", "(us)", "(GB/s)");
}

std::string probe_row(const char* probe, std::int64_t bytes, const timing& t, double Bps) {
    return fmt::format("  {:>10} {:>12} {:>10.2f} {:>10.2f} {:>10.2f} {:>9.2f}\n", probe, bytes, t.median_s * 1e6, t.min_s * 1e6, t.max_s * 1e6,
                       Bps / 1e9);
}

std::string gemm_header(const std::string& title) {
    return fmt::format("#\n# {}\n#\n# {:>8} {:>8} {:>8} {:>6} {:>10} {:>12} {:>10}\n# {:>8} {:>8} {:>8} {:>6} {:>10} {:>12} {:>10}\n", title, "m",
                       "n", "k", "dtype", "shape", "time", "rate", "", "", "", "", "", "(us)", "(TFLOP/s)");
}

std::string gemm_row(const gemm_shape& s, const char* dtype, const timing& t, double flops_per_s) {
    return fmt::format("  {:>8} {:>8} {:>8} {:>6} {:>10} {:>12.2f} {:>10.2f}\n", s.m, s.n, s.k, dtype, s.what, t.median_s * 1e6, flops_per_s / 1e12);
}

}  // namespace tslab::calibrate
