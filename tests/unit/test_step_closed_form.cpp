// Closed-form stand-ins for L4/L5 (step_closed_form.hpp): bubble (p−1)/(v·m), ring AllReduce, TP count.
#include <catch2/catch.hpp>

#include "tslab/step_closed_form.hpp"

using namespace tslab;

namespace {

scenario gpt(long pp, long vpp, long m, const char* recompute) {
    return parse_scenario({{"model", "gpt-39.1b"}, {"parallel", {{"tp", 8}, {"pp", pp}, {"vpp", vpp}, {"dp", 2}}},
                           {"training", {{"global_batch", m * 2}, {"recompute", recompute},
                                         {"schedule", vpp > 1 ? "interleaved" : "1f1b"}}}});
}

}  // namespace

TEST_CASE("Bubble: (p−1)/m of the stage compute, ÷ v when interleaved (arXiv 2104.04473 section 2.2)", "[closed_form]") {
    const scenario a = gpt(4, 1, 32, "full");
    const compute_estimate c = estimate_compute(a);
    const closed_form_step r = closed_form_step_time(a, c);
    const double stage = 32 * (c.fwd_s + c.bwd_s + c.recompute_s);
    CHECK(r.bubble_s == Approx(3.0 / 32 * stage));
    const scenario b = gpt(4, 3, 32, "full");
    const compute_estimate cb = estimate_compute(b);
    CHECK(closed_form_step_time(b, cb).bubble_s == Approx(3.0 / (3 * 32) * 32 * (cb.fwd_s + cb.bwd_s + cb.recompute_s)));
    CHECK(closed_form_step_time(gpt(1, 1, 32, "full"), estimate_compute(gpt(1, 1, 32, "full"))).bubble_s == 0);
}

TEST_CASE("Ring AllReduce: 2(n−1)/n · bytes / bandwidth + 2(n−1) latency", "[closed_form]") {
    const link_spec l{300e9, 3e-6};
    CHECK(ring_allreduce_s(1e9, 8, l) == Approx(2 * 7.0 / 8 * 1e9 / 300e9 + 14 * 3e-6));
    CHECK(ring_allreduce_s(1e9, 1, l) == 0);
}

TEST_CASE("TP: 4 AllReduces per layer and micro-batch, 6 with full recompute", "[closed_form]") {
    for (const char* rc : {"none", "full"}) {
        const scenario s = gpt(2, 1, 8, rc);
        const compute_estimate c = estimate_compute(s);
        const double bytes = 2048.0 * 8192 * 2;
        const double per = std::string(rc) == "full" ? 6 : 4;
        INFO(rc);
        CHECK(closed_form_step_time(s, c).tp_comm_s == Approx(8 * 24 * per * ring_allreduce_s(bytes, 8, s.cluster.intra_node)));
    }
}

TEST_CASE("DP ring link: NVLink inside a node, one NIC per parallel ring across nodes", "[closed_form]") {
    const scenario in_node = parse_scenario({{"parallel", {{"dp", 8}}}});
    CHECK(dp_ring_link(in_node).bandwidth_Bps == in_node.cluster.intra_node.bandwidth_Bps);
    const scenario across = parse_scenario({{"parallel", {{"dp", 32}}}});
    CHECK(dp_ring_link(across).bandwidth_Bps == 8 * across.cluster.inter_node.bandwidth_Bps);
    const scenario tp8 = parse_scenario({{"model", "gpt-18.4b"}, {"parallel", {{"dp", 4}, {"tp", 8}}}});
    CHECK(dp_ring_link(tp8).bandwidth_Bps == tp8.cluster.inter_node.bandwidth_Bps);
}
