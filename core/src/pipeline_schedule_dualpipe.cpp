// DualPipe and DualPipeV (deepseek-ai/DualPipe, dualpipe/dualpipe.py and dualpipev.py, step()).
// Phase 0/1 are the rank's two chunks; for DualPipe's second half of ranks phase 0 is the reverse
// direction. Notation: F0 forward of phase 0, B1 backward of phase 1, W a queued weight-grad.
#include <algorithm>
#include <deque>

#include "tslab/pipeline_schedule.hpp"

namespace tslab::detail {

namespace {

struct phase_emitter {
    const pipeline_schedule& s;
    rank_builder rb;
    std::int64_t rank, half_rank, n_half;  // DualPipe: half ranks; DualPipeV: the ranks themselves
    bool second_half = false;
    std::int64_t f_next[2] = {0, 0}, b_next[2] = {0, 0};
    std::deque<pipeline_op> w_queue = {};  // DualPipe's WeightGradStore: FIFO of postponed W

    // (stage, micro-batch, chunk) of the next forward or backward of a phase.
    pipeline_op next(int phase, bool forward) {
        const int chunk = phase ^ static_cast<int>(second_half);
        std::int64_t& counter = forward ? f_next[chunk] : b_next[chunk];
        pipeline_op o;
        o.chunk = static_cast<std::uint8_t>(chunk);
        if (s.placement == stage_placement::dual) {
            o.stage = static_cast<std::int32_t>(chunk == 0 ? rank : s.ranks - 1 - rank);
            o.microbatch = static_cast<std::int32_t>(chunk * (s.microbatches / 2) + counter++);
        } else {
            o.stage = static_cast<std::int32_t>(chunk == 0 ? rank : 2 * s.ranks - 1 - rank);
            o.microbatch = static_cast<std::int32_t>(counter++);
        }
        return o;
    }
    void forward(int phase) {
        const pipeline_op o = next(phase, true);
        rb.f(o.stage, o.microbatch, o.chunk);
    }
    // zb: the backward computes input grads now (I) and queues W; otherwise a full B.
    void backward(int phase, bool zb) {
        const pipeline_op o = next(phase, false);
        rb.b(zb ? op_kind::I : op_kind::B, o.stage, o.microbatch, o.chunk);
        if (zb) w_queue.push_back(o);
    }
    void weight() {
        if (w_queue.empty()) return;
        const pipeline_op o = w_queue.front();
        w_queue.pop_front();
        rb.b(op_kind::W, o.stage, o.microbatch, o.chunk);
    }
    void overlapped(int f_phase, int b_phase) {
        const pipeline_op f = next(f_phase, true), b = next(b_phase, false);
        rb.fb(f, b);
    }
};

void emit_rank(phase_emitter& e, std::int64_t chunks_per_direction, bool pivot) {
    const std::int64_t n = e.n_half, h = e.half_rank;
    for (std::int64_t i = 0; i < 2 * (n - h - 1); ++i) e.forward(0);  // 1. nF0       n = 2(N−h−1)
    for (std::int64_t i = 0; i < h + 1; ++i) e.forward(0), e.forward(1);  // 2. nF0F1  n = h+1
    for (std::int64_t i = 0; i < n - h - 1; ++i) {  // 3. nB1W1F1   n = N−h−1 (zero bubble)
        e.backward(1, true);
        e.weight();
        e.forward(1);
    }
    for (std::int64_t i = 0; i < chunks_per_direction - 2 * n + h + 1; ++i) {  // 4. nF0B1F1B0  n = M−2N+h+1
        // The pivot rank does not overlap its first pair, to shorten the bubble (DualPipe note).
        if (i == 0 && pivot)
            e.forward(0), e.backward(1, false);
        else
            e.overlapped(0, 1);
        e.overlapped(1, 0);
    }
    for (std::int64_t i = 0; i < n - h - 1; ++i) e.backward(1, false), e.overlapped(1, 0);  // 5. nB1F1B0  n = N−h−1
    bool zb = false;  // 6. nB1B0     n = h+1, second half zero bubble
    for (std::int64_t i = 0; i < h + 1; ++i) {
        if (i == (h + 1) / 2 && h % 2 == 1) zb = true;
        e.backward(1, zb);
        if (i == (h + 1) / 2 && h % 2 == 0) zb = true;
        e.backward(0, zb);
    }
    for (std::int64_t i = 0; i < n - h - 1; ++i) e.weight(), e.backward(0, true);  // 7. nWB0  n = N−h−1
    while (!e.w_queue.empty()) e.weight();  // 8. nW        n = h+1 (the queue)
}

}  // namespace

void generate_dualpipe(pipeline_schedule& s, const schedule_request&) {
    const bool dual = s.placement == stage_placement::dual;
    const std::int64_t p = s.ranks, n = dual ? p / 2 : p;
    // M: micro-batches per direction (DualPipe half_num_chunks) or all of them (DualPipeV).
    const std::int64_t per_direction = dual ? s.microbatches / 2 : s.microbatches;
    for (std::int64_t r = 0; r < p; ++r) {
        phase_emitter e{s, rank_builder{s.rank_ops[static_cast<std::size_t>(r)]}, r, dual ? std::min(r, p - 1 - r) : r, n};
        e.second_half = dual && r >= p / 2;
        const bool pivot = dual ? (r == n - 1 || r == n) : r == p - 1;
        emit_rank(e, per_direction, pivot);
    }
}

}  // namespace tslab::detail
