// The one descriptor table of pipeline schedules: one row per schedule_kind (name, placement, chunks,
// copies, split backward, EP overlap, preconditions, closed-form bubble and in-flight count, generator,
// source). Parsers, to_string, the generator dispatch, the closed forms and the vocabulary read it.
// A new schedule is its enumerator and row here, its generator file and its tests (HOWTO.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tslab {

enum class schedule_kind { gpipe, one_f_one_b, interleaved, zb_h1, zb_h2, zbv, dualpipe, dualpipev };

// How stages map to (rank, chunk): linear s -> (s mod p, s div p) covers GPipe, 1F1B, ZB-H1/H2
// and interleaved; v_shape puts stage s < p on rank s and s ≥ p on rank 2p−1−s (ZBV, DualPipeV);
// dual runs two pipelines in opposite directions (DualPipe: the second half of the micro-batches
// enters at the last rank).
enum class stage_placement : std::uint8_t { linear, v_shape, dual };

// Model chunks each rank holds: one, two, or parallel.vpp (interleaved).
enum class chunks_rule : std::uint8_t { one, two, vpp };

// Chunk-op costs (pipeline_sim.hpp pipeline_costs) and p ranks, for the closed-form bubble.
struct bubble_terms {
    double p, F, B, W, FB;  // FB: the overlapped pair F&B (F + B when not overlapped)
};

struct pipeline_schedule;
struct schedule_request;

struct schedule_desc {
    schedule_kind kind;
    const char* name;  // the name in JSON ("1f1b")
    const char* label;  // the name in prose ("1F1B")
    stage_placement placement;
    chunks_rule chunks;
    int param_copies;  // model copies the pipeline holds (DualPipe 2)
    bool split_backward;  // B split into I and W (zero-bubble family)
    bool ep_overlap;  // overlaps the EP all-to-all with the paired chunk's compute (DualPipe)
    // Preconditions (check_schedule_preconditions, schedule_rules.hpp): ranks ≥ min_pp and a multiple of
    // pp_multiple; micro-batches m a multiple of p (m_multiple_of_p), even (m_even), m ≥ m_per_rank·p.
    int min_pp, pp_multiple;
    bool m_multiple_of_p, m_even;
    int m_per_rank;
    double (*bubble)(const bubble_terms& t);  // idle time of the busiest rank, chunk costs
    const char* bubble_formula;
    // Peak (micro-batch × chunk) alive on rank r; monotone in r (rising or falling), so that the
    // largest over a run of ranks is at one of its ends (memory.cpp class_inflight).
    double (*inflight)(double p, double v, double m, double r);
    const char* inflight_formula;
    void (*generate)(pipeline_schedule& s, const schedule_request& q);  // appends every rank's ops
    const char* source;
    // The generator builds at least pad_m_per_rank·p − pad_m_less micro-batches and drops the ones
    // beyond m (ZB-V's handcrafted steady state needs 2p − 1); 0: it builds exactly m.
    int pad_m_per_rank = 0, pad_m_less = 0;
    // Micro-batches the generator walks for m requested on p ranks (schedule_work_estimate).
    constexpr std::int64_t generated_microbatches(std::int64_t m, std::int64_t p) const {
        const std::int64_t floor = pad_m_per_rank * p - pad_m_less;
        return m > floor ? m : floor;
    }
};

namespace detail {
// The generators, one per file pipeline_schedule_<family>.cpp.
void generate_gpipe(pipeline_schedule& s, const schedule_request& q);
void generate_one_f_one_b(pipeline_schedule& s, const schedule_request& q);
void generate_zb_h1(pipeline_schedule& s, const schedule_request& q);
void generate_zb_h2(pipeline_schedule& s, const schedule_request& q);
void generate_interleaved(pipeline_schedule& s, const schedule_request& q);
void generate_zbv(pipeline_schedule& s, const schedule_request& q);
void generate_dualpipe(pipeline_schedule& s, const schedule_request& q);  // dualpipe and dualpipev

constexpr double one_f_one_b_bubble(const bubble_terms& t) { return (t.p - 1) * (t.F + t.B); }
constexpr double zero_bubble_bubble(const bubble_terms& t) { return (t.p - 1) * (t.F + t.B - 2 * t.W); }
constexpr double one_f_one_b_inflight(double p, double, double m, double r) { return std::min(p - r, m); }
}  // namespace detail

// Rows in schedule_kind order, 1F1B family first as the enum lists them. Bubbles: the DualPipe README
// table ("Pipeline Bubbles and Memory Usage Comparison") with chunk costs; ZB-H2 and ZB-V use ZB-H1's
// (p−1)(F+B−2W) = (p−1)(F+I−W), exact at F = I = W (arXiv 2401.10241 sections 3.1 and 6).
inline constexpr std::array schedule_rows = {
    schedule_desc{schedule_kind::gpipe, "gpipe", "GPipe", stage_placement::linear, chunks_rule::one, 1, false, false, 1, 1, false, false, 0,
                  detail::one_f_one_b_bubble, "(p−1)(F+B)", [](double, double, double m, double) { return m; }, "all m micro-batches",
                  detail::generate_gpipe, "Huang et al., GPipe, arXiv 1811.06965"},
    schedule_desc{schedule_kind::one_f_one_b, "1f1b", "1F1B", stage_placement::linear, chunks_rule::one, 1, false, false, 1, 1, false, false, 0,
                  detail::one_f_one_b_bubble, "(p−1)(F+B)", detail::one_f_one_b_inflight, "min(p − r, m) on rank r", detail::generate_one_f_one_b,
                  "Narayanan et al., arXiv 2104.04473 section 2.2 (PipeDream-Flush)"},
    schedule_desc{schedule_kind::interleaved, "interleaved", "interleaved 1F1B", stage_placement::linear, chunks_rule::vpp, 1, false, false, 2, 1,
                  true, false, 0, detail::one_f_one_b_bubble, "(p−1)(F+B), F and B of one chunk (1/v stage)",
                  [](double p, double v, double m, double r) { return std::min((v - 1) * p + 2 * (p - r - 1) + 1, m * v); },
                  "(v−1)p + 2(p−r−1) + 1 chunks = p(1 + (p−1)/(pv)) stages on rank 0", detail::generate_interleaved,
                  "Narayanan et al., arXiv 2104.04473 section 2.2; Megatron-LM interleaved schedule"},
    schedule_desc{schedule_kind::zb_h1, "zb-h1", "ZB-H1", stage_placement::linear, chunks_rule::one, 1, true, false, 2, 1, false, false, 0,
                  detail::zero_bubble_bubble, "(p−1)(F+B−2W)", [](double p, double, double m, double) { return std::min(p, m); },
                  "min(p, m) on every rank (the W passes deferred into the drain keep their activations)", detail::generate_zb_h1,
                  "Qi et al., Zero Bubble Pipeline Parallelism, arXiv 2401.10241 section 3.1"},
    schedule_desc{schedule_kind::zb_h2, "zb-h2", "ZB-H2", stage_placement::linear, chunks_rule::one, 1, true, false, 2, 1, false, false, 0,
                  detail::zero_bubble_bubble, "(p−1)(F+B−2W), exact at F = I = W",
                  [](double p, double, double m, double) { return std::min(2 * p - 1, m); },
                  "min(2p − 1, m) on every rank (W deferred; arXiv 2401.10241 Table 1 peak)", detail::generate_zb_h2,
                  "Qi et al., arXiv 2401.10241 section 3.1 and Table 1"},
    // ZB-V in-flight: the end of its warm-up (pipeline_schedule_zbv.cpp phases 1–3), min(m, 2p−r−1) F0,
    // min(m, r) F1 and, when r < m, the first F1 of phase 3; with m ≥ 2p − 1 that is 2p on every rank.
    schedule_desc{schedule_kind::zbv,
                  "zbv",
                  "ZB-V",
                  stage_placement::v_shape,
                  chunks_rule::two,
                  1,
                  true,
                  false,
                  2,
                  1,
                  false,
                  false,
                  0,
                  detail::zero_bubble_bubble,
                  "(p−1)(F+B−2W), exact at F = I = W",
                  [](double p, double, double m, double r) {
                      return std::min({2 * p, 2 * m, m + r + 1});
                  },
                  "min(2p, 2m, m + r + 1) half-stage chunks on rank r (2p = 1F1B's bytes)",
                  detail::generate_zbv,
                  "Qi et al., arXiv 2401.10241 section 6 (ZB-V)",
                  2,
                  1},
    schedule_desc{schedule_kind::dualpipe, "dualpipe", "DualPipe", stage_placement::dual, chunks_rule::two, 2, true, true, 2, 2, false, true, 2,
                  [](const bubble_terms& t) { return (t.p / 2 - 1) * (t.FB + t.B - 3 * t.W); }, "(p/2−1)(F&B+B−3W)",
                  [](double p, double, double, double) { return p + 1; }, "PP + 1 stages, 2× parameters", detail::generate_dualpipe,
                  "DeepSeek-V3 arXiv 2412.19437 section 3.2.1; deepseek-ai/DualPipe dualpipe.py and README"},
    schedule_desc{schedule_kind::dualpipev, "dualpipev", "DualPipeV", stage_placement::v_shape, chunks_rule::two, 1, true, true, 2, 1, false, false,
                  2, [](const bubble_terms& t) { return (t.p - 1) * (t.FB + t.B - 3 * t.W); }, "(p−1)(F&B+B−3W)",
                  [](double p, double, double, double) { return 2 * p + 1; }, "PP + 1 with PP = 2p half-stage chunks", detail::generate_dualpipe,
                  "deepseek-ai/DualPipe dualpipev.py and README (DualPipeV, the cut-in-half DualPipe)"},
};

// Rows sit at their enumerator's index: describe() is one array access.
constexpr bool schedule_rows_in_order() {
    for (std::size_t i = 0; i < schedule_rows.size(); ++i)
        if (static_cast<std::size_t>(schedule_rows[i].kind) != i) return false;
    return true;
}
static_assert(schedule_rows_in_order(), "schedule_rows must list every schedule_kind once, in enum order");

inline const schedule_desc& describe(schedule_kind k) { return schedule_rows[static_cast<std::size_t>(k)]; }
std::optional<schedule_kind> schedule_from_name(std::string_view name);
// Every row's name in table order, for field_reader::choice (which adds the "did you mean").
const std::vector<std::string>& schedule_names();
const char* to_string(schedule_kind s);

// Model chunks per rank for a given vpp, and stages on every micro-batch's path (p·chunks, DualPipe p).
std::int64_t chunks_per_rank(const schedule_desc& d, std::int64_t vpp);
std::int64_t path_stages(const schedule_desc& d, std::int64_t ranks, std::int64_t vpp);

// The micro-batch precondition in words ("m ≥ 1", "m even, m ≥ 2p", ...), built from the row's fields.
std::string microbatch_rule(const schedule_desc& d);

}  // namespace tslab
