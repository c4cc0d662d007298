// Pipeline schedules as data: per rank, the ordered list of F/B/I/W/FB ops a generator emits,
// plus the placement of stages on ranks and a validator (completeness, dependencies, deadlock).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/schedule_table.hpp"

namespace tslab {

// F forward; B full backward; I backward for inputs only; W backward for weights (after I);
// FB an overlapped pair: the forward of one chunk and the full backward of another (DualPipe).
enum class op_kind : std::uint8_t { F, B, I, W, FB };
const char* to_string(op_kind k);

// One op, 20 bytes. `stage` is the micro-batch's position on its path through the model
// (0 .. stages-1); `chunk` is which of the rank's model chunks runs it. The b_* fields are the
// backward half of an FB op and are unused otherwise.
struct pipeline_op {
    std::int32_t stage = 0, microbatch = 0;
    std::int32_t b_stage = 0, b_microbatch = 0;
    op_kind kind = op_kind::F;
    std::uint8_t chunk = 0, b_chunk = 0;
};

struct schedule_request {
    schedule_kind kind = schedule_kind::one_f_one_b;
    std::int64_t ranks = 1, microbatches = 1, vpp = 1;
    // Kimi K2 technical report (arXiv 2507.20534 section 2.4.2, "EP communication overlap with
    // interleaved 1F1B"; Figure 7): more warm-up micro-batches than Megatron's interleaved 1F1B so that
    // the EP all-to-all overlaps computation. The report gives no count; 0 = Megatron's warm-up.
    std::int64_t extra_warmup = 0;
    // EP all-to-all overlap in the 1F1B steady phase (Megatron-Core overlap_moe_expert_parallel_comm
    // with delay_wgrad_compute; Kimi K2 arXiv 2507.20534 section 2.4.2): each steady forward runs
    // with the backward after it as one F&B op, so each one's all-to-all hides under the other's
    // compute, as in DualPipe's pairs (pipeline_cost_model.hpp chunk_costs). Interleaved, or 1F1B on
    // one stage (pair_steady_allowed).
    bool pair_steady = false;
};

// Whether the schedule runs F&B pairs: DualPipe's by design, or a 1F1B steady phase paired on request.
bool pairs_fb(const schedule_request& q);
// Forward passes rank r runs before its first backward (1F1B and interleaved; the generators and the
// paired steady phase's closed form read it): 1F1B min(p − r − 1, m) (Narayanan et al. arXiv
// 2104.04473 section 2.2); interleaved min(2(p − r − 1) + (v − 1)p + extra_warmup, m·v) (Megatron-LM's
// interleaved warm-up, plus Kimi K2's extra micro-batches).
std::int64_t warmup_forwards(const schedule_request& q, std::int64_t r);
// Where pair_steady applies: interleaved 1F1B, whose paired forward and backward belong to different
// model chunks, or one stage. In plain 1F1B on several stages the forward a rank pairs with a
// backward arrives from the rank before only after that rank's own pair, and the chain of pairs
// runs at half the 1F1B rate (Megatron-Core supports the overlap with virtual pipeline stages or
// without pipeline parallelism).
bool pair_steady_allowed(schedule_kind k, std::int64_t ranks);

struct pipeline_schedule {
    schedule_kind kind = schedule_kind::one_f_one_b;
    std::int64_t ranks = 1, microbatches = 1, vpp = 1;
    std::int64_t stages = 1;  // stages on every micro-batch's path
    std::int64_t chunks_per_rank = 1;
    stage_placement placement = stage_placement::linear;
    double param_copies = 1;  // model copies the pipeline holds (DualPipe: 2)
    // Parameters per device in stages of the micro-batch path, the DualPipe README's "Parameter
    // Per Device" column (same number of PP stages): chunks held per rank (DualPipe 2, DualPipeV 2).
    double stage_params_per_device = 1;
    std::vector<std::vector<pipeline_op>> rank_ops;
};

// The largest schedule the core generates or simulates: 2,000,000 ops (≈ 40 MB of ops plus
// timeline). Requests above it get an input_error before anything is allocated.
inline constexpr std::int64_t max_schedule_ops = 2'000'000;

// Closed-form op count of a request (before generation), as a double so absurd sizes cannot overflow.
double schedule_op_estimate(const schedule_request& q);

// Ops generated on the way, exactly: the op estimate, with ZB-V's padding to 2p − 1 micro-batches
// (O(ranks²) for few micro-batches). The op cap applies to this.
double schedule_work_estimate(const schedule_request& q);

// Stages on every micro-batch's path: p·v interleaved, 2p V-shaped (ZBV, DualPipeV), else p.
std::int64_t schedule_stages(const schedule_request& q);

// Checks the schedule's preconditions (check_schedule_preconditions, schedule_rules.hpp, with the
// spec's paths), the Kimi K2 extra warm-up and the op cap; throws input_error naming the rule.
void check_schedule_request(const schedule_request& q);

// Generates the per-rank op lists. Throws input_error on a broken precondition or the op cap.
pipeline_schedule generate_schedule(const schedule_request& q);

struct stage_slot {
    std::int64_t rank = 0;
    std::int64_t chunk = 0;
};
// Where micro-batch `mb` runs stage `stage`.
stage_slot locate(const pipeline_schedule& s, std::int64_t mb, std::int64_t stage);

// Every micro-batch runs F then B (or I then W) exactly once on every stage, each op on the rank
// and chunk that hold its stage, dependencies in order and no deadlock. Throws input_error
// ("schedule: ...") naming the first violation.
void validate_schedule(const pipeline_schedule& s);

namespace detail {
// Builders shared by the generator files: they append ops to one rank's list.
struct rank_builder {
    std::vector<pipeline_op>& ops;
    void f(std::int64_t stage, std::int64_t mb, std::int64_t chunk);
    void b(op_kind k, std::int64_t stage, std::int64_t mb, std::int64_t chunk);  // B, I or W
    void fb(const pipeline_op& f, const pipeline_op& b);
    // Fuses the last two ops pushed (a backward, then a forward) into one F&B op.
    void pair_last_b_f();
};
}  // namespace detail

}  // namespace tslab
