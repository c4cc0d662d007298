// ZB-V (Qi et al. "Zero Bubble Pipeline Parallelism", arXiv 2401.10241 section 6; phases as in the
// authors' handcrafted generator, sail-sg/zero-bubble-pipeline-parallelism handcrafted_zb_v).
// Rank r holds chunk 0 = stage r and chunk 1 = stage 2p−1−r; the forward runs down the ranks on
// chunk 0 and back up on chunk 1, so rank 0 both starts and ends every micro-batch's path. Every
// backward is split into I (input-grad) and W (weight-grad). With T_F = T_I = T_W no rank idles
// between its first op and its last, and every rank peaks at 2p chunks in flight, 1F1B's p stages.
// Notation: F0/F1 forward of chunk 0/1, I0/I1 input-grad, W0/W1 weight-grad; M = max(m, 2p − 1).
#include <algorithm>

#include "tslab/pipeline_schedule.hpp"

namespace tslab::detail {

namespace {

// Per-rank counters. The phases are written for M = max(m, 2p − 1) micro-batches, the steady state
// the paper's figure needs; ops of the padded micro-batches (mb ≥ m) are dropped, as the authors'
// generator does. Dropping a micro-batch from every rank keeps the order deadlock-free.
struct zbv_rank {
    rank_builder rb;
    std::int64_t stage[2], m;
    std::int64_t f[2] = {0, 0}, i[2] = {0, 0}, w[2] = {0, 0};

    void emit(op_kind k, int c, std::int64_t& counter) {
        if (counter < m) k == op_kind::F ? rb.f(stage[c], counter, c) : rb.b(k, stage[c], counter, c);
        ++counter;
    }
    void fwd(int c) { emit(op_kind::F, c, f[c]); }
    void input(int c) { emit(op_kind::I, c, i[c]); }
    void weight(int c) { emit(op_kind::W, c, w[c]); }
};

void zbv_rank_ops(zbv_rank& z, std::int64_t r, std::int64_t p) {
    const std::int64_t big_m = describe(schedule_kind::zbv).generated_microbatches(z.m, p);  // the row's 2p − 1 floor
    for (std::int64_t k = 0; k < 2 * (p - r) - 1; ++k) z.fwd(0);  // 1. nF0          n = 2(p−r)−1
    for (std::int64_t k = 0; k < r; ++k) z.fwd(1), z.fwd(0);  // 2. nF1F0        n = r
    for (std::int64_t k = 0; k < p - r; ++k)  // 3. nF1I1W1      n = p−r
        z.fwd(1), z.input(1), z.weight(1);
    for (std::int64_t k = 0; k < big_m - 2 * p + r + 1; ++k) {  // 4. nF0I0W0F1I1W1  n = M−2p+r+1 (zero bubble)
        z.fwd(0), z.input(0), z.weight(0);
        z.fwd(1), z.input(1), z.weight(1);
    }
    for (std::int64_t k = 0; k < p - r - 1; ++k) {  // 5. nI0W0F1I1W1  n = p−r−1
        z.input(0), z.weight(0);
        z.fwd(1), z.input(1), z.weight(1);
    }
    for (std::int64_t k = 0; k < r; ++k) z.input(0), z.input(1);  // 6. nI0I1        n = r (W deferred)
    for (std::int64_t k = 0; k < p - r; ++k) z.input(0), z.weight(0);  // 7. nI0W0        n = p−r
    for (std::int64_t k = 0; k < r; ++k) z.weight(1);  // 8. nW1          n = r
    for (std::int64_t k = 0; k < r; ++k) z.weight(0);  // 9. nW0          n = r
}

}  // namespace

// Per rank: F0 and F1 each M times (phases 1–5), I and W likewise (3–9), so 6M ops before the
// padding is dropped and 6m after.
void generate_zbv(pipeline_schedule& s, const schedule_request&) {
    const std::int64_t p = s.ranks;
    for (std::int64_t r = 0; r < p; ++r) {
        zbv_rank z{rank_builder{s.rank_ops[static_cast<std::size_t>(r)]}, {r, 2 * p - 1 - r}, s.microbatches};
        zbv_rank_ops(z, r, p);
    }
}

}  // namespace tslab::detail
