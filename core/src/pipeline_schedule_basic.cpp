// One-chunk-per-rank schedules: GPipe, 1F1B (PipeDream-Flush) and the zero-bubble ZB-H1 / ZB-H2.
// Notation in the phase comments: nF = n forwards, B full backward, I input-grad, W weight-grad.
#include <algorithm>

#include "tslab/pipeline_schedule.hpp"

namespace tslab::detail {

namespace {

// GPipe (Huang et al. arXiv 1811.06965): all forwards, then all backwards.
void gpipe_rank(rank_builder rb, std::int64_t r, std::int64_t m) {
    for (std::int64_t i = 0; i < m; ++i) rb.f(r, i, 0);  // 1. mF        count m
    for (std::int64_t i = 0; i < m; ++i) rb.b(op_kind::B, r, i, 0);  // 2. mB        count m
}

// 1F1B / PipeDream-Flush (Narayanan et al. arXiv 2104.04473 section 2.2, Megatron-LM
// forward_backward_pipelining_without_interleaving): rank r keeps at most p − r micro-batches alive.
void one_f_one_b_rank(rank_builder rb, std::int64_t r, std::int64_t m, std::int64_t warm, bool pair) {
    for (std::int64_t i = 0; i < warm; ++i) rb.f(r, i, 0);  // 1. nF        n = min(p−r−1, m)
    for (std::int64_t i = 0; i < m - warm; ++i) {  // 2. n(FB)     n = m − warm-up
        // Paired: the backward of micro-batch i runs with the forward after it as one F&B op (never
        // with its own forward, which it needs), so the first steady forward stands alone.
        if (!pair || i == 0) rb.f(r, warm + i, 0);
        rb.b(op_kind::B, r, i, 0);
        if (pair && warm + i + 1 < m) rb.f(r, warm + i + 1, 0), rb.pair_last_b_f();
    }
    for (std::int64_t i = m - warm; i < m; ++i) rb.b(op_kind::B, r, i, 0);  // 3. nB   n = warm-up
}

// Zero bubble (Qi et al. arXiv 2401.10241 section 3.1, Figure 3): B splits into I and W; W has no
// downstream consumer, so rank r postpones W by `delay` micro-batches to fill the bubbles.
// ZB-H1 keeps 1F1B's memory: warm-up p − r, W delayed by r, peak alive (F until W) p on every rank.
// ZB-H2 spends 2p − 1 micro-batches of memory (Table 1): warm-up 2(p − r) − 1 extra F passes fill
// the bubble before rank r's first I (the F of micro-batch 0 needs p − 1 − r hops down and the I
// p − 1 − r hops back), and W delayed by 2r pushes each rank's last W's past its last I, so the
// ranks form a parallelogram: with F = I = W and m ≥ 2p − 1 no rank idles between its first op and
// its last (the paper's "eliminating all the bubbles"). Warm-up + delay = 2p − 1 on every rank.
void zero_bubble_rank(rank_builder rb, std::int64_t r, std::int64_t m, std::int64_t warm, std::int64_t delay) {
    warm = std::min(warm, m);
    for (std::int64_t i = 0; i < warm; ++i) rb.f(r, i, 0);  // 1. nF        n = min(warm-up, m)
    for (std::int64_t k = 0; k < m; ++k) {  // 2. n(I W F)  n = m; W from k = delay, F while k + warm-up < m
        rb.b(op_kind::I, r, k, 0);
        if (k >= delay) rb.b(op_kind::W, r, k - delay, 0);  //    W of micro-batch k − delay
        if (k + warm < m) rb.f(r, k + warm, 0);
    }
    for (std::int64_t k = std::max<std::int64_t>(m - delay, 0); k < m; ++k) rb.b(op_kind::W, r, k, 0);  // 3. nW        n = min(delay, m)
}

}  // namespace

namespace {

// Runs `rank_ops(rb, r, p, m)` for every rank r of the schedule.
template <class F>
void each_rank(pipeline_schedule& s, F&& rank_ops) {
    for (std::int64_t r = 0; r < s.ranks; ++r) rank_ops(rank_builder{s.rank_ops[static_cast<std::size_t>(r)]}, r, s.ranks, s.microbatches);
}

}  // namespace

void generate_gpipe(pipeline_schedule& s, const schedule_request&) {
    each_rank(s, [](rank_builder rb, std::int64_t r, std::int64_t, std::int64_t m) { gpipe_rank(rb, r, m); });
}
void generate_one_f_one_b(pipeline_schedule& s, const schedule_request& q) {
    each_rank(
        s, [&](rank_builder rb, std::int64_t r, std::int64_t, std::int64_t m) { one_f_one_b_rank(rb, r, m, warmup_forwards(q, r), q.pair_steady); });
}
void generate_zb_h1(pipeline_schedule& s, const schedule_request&) {
    each_rank(s, [](rank_builder rb, std::int64_t r, std::int64_t p, std::int64_t m) { zero_bubble_rank(rb, r, m, p - r, r); });
}
void generate_zb_h2(pipeline_schedule& s, const schedule_request&) {
    each_rank(s, [](rank_builder rb, std::int64_t r, std::int64_t p, std::int64_t m) { zero_bubble_rank(rb, r, m, 2 * (p - r) - 1, 2 * r); });
}

}  // namespace tslab::detail
