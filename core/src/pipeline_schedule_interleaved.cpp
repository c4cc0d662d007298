// Interleaved 1F1B with vpp model chunks per rank (Narayanan et al. arXiv 2104.04473 section 2.2;
// Megatron-LM forward_backward_pipelining_with_interleaving), optionally with Kimi K2's extra warm-up:
// the Kimi K2 technical report (arXiv 2507.20534 section 2.4.2, paragraph "EP communication overlap
// with interleaved 1F1B", and Figure 7) increases the number of warm-up micro-batches of the standard
// interleaved 1F1B so that the EP all-to-all (dispatch/combine) overlaps computation, instead of
// DualPipe, which doubles parameter and gradient memory. The extra forwards only move where the
// steady 1F1B phase starts; the report names no count, so it is the caller's `extra_warmup`. The EP
// traffic itself is not simulated here: the extra warm-up shows up as more micro-batches in flight;
// with pair_steady each steady forward and backward become one F&B op, whose cost hides the EP
// all-to-all (pipeline_cost_model.hpp).
#include <algorithm>

#include "tslab/pipeline_schedule.hpp"

namespace tslab::detail {

namespace {

// Virtual micro-batch k walks p micro-batches through one chunk before moving to the next chunk;
// backwards visit the chunks in reverse (Megatron get_model_chunk_id).
struct virtual_step {
    std::int64_t mb, chunk;
};
virtual_step virtual_of(std::int64_t k, std::int64_t p, std::int64_t v, bool forward) {
    const std::int64_t group = k / p;
    const std::int64_t chunk = forward ? group % v : v - 1 - group % v;
    return {(k / (p * v)) * p + k % p, chunk};
}

}  // namespace

void generate_interleaved(pipeline_schedule& s, const schedule_request& q) {
    const std::int64_t p = s.ranks, m = s.microbatches, v = s.vpp, total = m * v;
    for (std::int64_t r = 0; r < p; ++r) {
        rank_builder rb{s.rank_ops[static_cast<std::size_t>(r)]};
        auto fwd = [&](std::int64_t k) {
            const auto st = virtual_of(k, p, v, true);
            rb.f(st.chunk * p + r, st.mb, st.chunk);
        };
        auto bwd = [&](std::int64_t k) {
            const auto st = virtual_of(k, p, v, false);
            rb.b(op_kind::B, st.chunk * p + r, st.mb, st.chunk);
        };
        // Megatron's warm-up 2(p−r−1) + (v−1)p, plus Kimi K2's extra warm-up micro-batches (section 2.4.2).
        const std::int64_t warm = warmup_forwards(q, r);
        for (std::int64_t k = 0; k < warm; ++k) fwd(k);  // 1. nF        n = min(2(p−r−1) + (v−1)p + extra, mv)
        for (std::int64_t k = 0; k < total - warm; ++k) {  // 2. n(FB)     n = mv − warm-up
            // Paired: backward k runs with the next forward as one F&B op (1F1B's pairing, shifted
            // by one forward so that no backward shares an op with the forward it needs).
            if (!q.pair_steady || k == 0) fwd(warm + k);
            bwd(k);
            if (q.pair_steady && warm + k + 1 < total) fwd(warm + k + 1), rb.pair_last_b_f();
        }
        for (std::int64_t k = total - warm; k < total; ++k) bwd(k);  // 3. nB        n = warm-up
    }
}

}  // namespace tslab::detail
