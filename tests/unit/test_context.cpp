// L7 context: SP, Ulysses, Ring and USP volumes against closed forms, and their constraint errors (context.hpp).
#include <catch2/catch.hpp>

#include "tslab/context.hpp"
#include "tslab/errors.hpp"

using namespace tslab;

namespace {

scenario llama(long tp, long cp, const char* method, bool sp = false) {
    return parse_scenario(
        {{"model", "llama3-8b"}, {"parallel", {{"tp", tp}, {"cp", cp}, {"cp_method", method}, {"sp", sp}}}, {"training", {{"seq_len", 32768}}}});
}

const context_item& find(const context_report& r, const std::string& what) {
    for (const auto& it : r.items)
        if (it.what.rfind(what, 0) == 0) return it;
    FAIL("no item " << what);
    return r.items.front();
}

}  // namespace

TEST_CASE("Megatron SP: 2 AllGather + 2 ReduceScatter of b·s·h per layer and pass", "[context]") {
    const context_report r = context_traffic(llama(8, 1, "ring", true));
    const double full = 32768.0 * 4096 * 2;
    CHECK(find(r, "sp allgather").bytes == full);
    CHECK(find(r, "sp allgather").count_fwd == 2);
    CHECK(find(r, "sp reducescatter").count_bwd == 2);
    CHECK(r.method == "none");
}

TEST_CASE("Ulysses: two All-to-All per attention, QKV then output", "[context]") {
    // Llama 3 8B, tp 1, cp 8: local tokens 32768/8; Q 32·128, K+V 2·8·128 per token, bf16.
    const context_report r = context_traffic(llama(1, 8, "ulysses"));
    const double tokens = 32768.0 / 8;
    CHECK(r.ulysses == 8);
    CHECK(r.ring == 1);
    CHECK(find(r, "ulysses qkv").bytes == tokens * (32 * 128 + 2 * 8 * 128) * 2);
    CHECK(find(r, "ulysses output").bytes == tokens * 32 * 128 * 2);
    CHECK(find(r, "ulysses qkv").op == "alltoall");
}

TEST_CASE("Ulysses beyond the KV heads replicates them", "[context]") {
    // tp 2: 4 KV heads per rank, degree 8: each KV head is sent twice (8 / 4).
    const context_report r = context_traffic(llama(2, 8, "ulysses"));
    const double tokens = 32768.0 / 8;
    CHECK(find(r, "ulysses qkv").bytes == tokens * (16 * 128 + 2 * 4 * 128 * 2.0) * 2);
}

TEST_CASE("Ring: cp−1 K/V blocks forward, 2(cp−1) backward, overlappable", "[context]") {
    const context_report r = context_traffic(llama(1, 4, "ring"));
    const context_item& k = find(r, "ring");
    CHECK(k.bytes == 32768.0 / 4 * 2 * 8 * 128 * 2);
    CHECK(k.count_fwd == 3);
    CHECK(k.count_bwd == 6);
    CHECK(k.overlappable);
}

TEST_CASE("USP: the largest Ulysses degree that divides the heads, ring over the rest", "[context]") {
    // 64 heads / tp 8 = 8 per rank; cp 32 → Ulysses 8, ring 4.
    const scenario s =
        parse_scenario({{"model", "llama3-70b"}, {"parallel", {{"tp", 8}, {"cp", 32}, {"cp_method", "usp"}}}, {"training", {{"seq_len", 131072}}}});
    const context_report r = context_traffic(s);
    CHECK(r.ulysses == 8);
    CHECK(r.ring == 4);
    CHECK(find(r, "ring").count_fwd == 3);
    CHECK(context_traffic(s, 2).ring == 16);
    CHECK_THROWS_WITH(context_traffic(s, 3), Catch::Contains("USP Ulysses degree 3 does not divide cp = 32"));
}

TEST_CASE("USP auto degree: the largest divisor of cp that divides the heads per TP rank", "[context]") {
    // The definition, counted down from cp, against ulysses_degree_of on a grid (heads per rank 0 too).
    scenario s = parse_scenario({{"model", "llama3-70b"}, {"parallel", {{"cp_method", "usp"}}}});
    for (std::int64_t heads : {1, 6, 24, 64, 96})
        for (std::int64_t tp : {1, 2, 8, 128})
            for (std::int64_t cp = 1; cp <= 4096; cp = cp < 48 ? cp + 1 : cp * 2) {
                s.model.heads = heads, s.parallel.tp = tp, s.parallel.cp = cp;
                std::int64_t want = 1;
                for (std::int64_t u = cp; u > 1 && want == 1; --u)
                    if (cp % u == 0 && (heads / tp) % u == 0) want = u;
                CHECK(ulysses_degree_of(s) == want);
            }
}

TEST_CASE("Constraint errors name parallel.cp and the rule", "[context]") {
    // 24 heads, 6 KV heads, Ulysses 4: 4 divides 24 but neither 4 | 6 nor 6 | 4.
    json model = {{"layers", 4}, {"hidden", 3072}, {"heads", 24}, {"kv_heads", 6}, {"ffn_hidden", 8192}};
    // The scenario parser applies the same rules (plan_rules_hold), so the plan is refused at parse time.
    CHECK_THROWS_WITH(parse_scenario({{"model", model}, {"parallel", {{"cp", 4}, {"cp_method", "ulysses"}}}}),
                      Catch::Contains("parallel.cp: Ulysses degree 4 and the KV heads per TP rank (6)"));
    scenario ring = llama(1, 16, "ring");
    ring.training.seq_len = 1000;
    CHECK_THROWS_WITH(check_context_parallel(ring), Catch::Contains("needs training.seq_len = 1000 in 2·16 equal chunks"));
    scenario uly = llama(1, 8, "ulysses");
    uly.parallel.cp = 16;
    uly.model.heads = 24;
    CHECK_THROWS_WITH(check_context_parallel(uly), Catch::Contains("Ulysses degree 16 does not divide the heads per TP rank"));
}

TEST_CASE("Ring and USP need training.flash_attention, Ulysses and all-gather CP do not", "[context]") {
    // A ring pass merges each K/V block's partial output by its log-sum-exp (Liu et al. arXiv 2310.01889
    // section 3), the online softmax that FlashAttention returns (Dao et al. arXiv 2205.14135 section
    // 3.1); USP runs a ring inside every Ulysses group (Fang and Zhao arXiv 2405.07719 section 3).
    // Ulysses (arXiv 2309.14509 section 3) and all-gather CP (Llama 3 arXiv 2407.21783 section 3.3.2)
    // hand the kernel whole K/V, so any attention kernel serves them.
    const auto doc = [](const char* method, bool flash) {
        return json{
            {"model", "llama3-8b"}, {"parallel", {{"cp", 2}, {"cp_method", method}}}, {"training", {{"seq_len", 32768}, {"flash_attention", flash}}}};
    };
    const std::pair<const char*, const char*> needs_flash[] = {{"ring", "Ring attention"}, {"usp", "USP (Ulysses × Ring)"}};
    for (const auto& [method, label] : needs_flash) {
        INFO(method);
        bool thrown = false;
        try {
            parse_scenario(doc(method, false));
        } catch (const input_error& e) {
            thrown = true;
            CHECK(std::string("parallel.cp") == e.path());
            CHECK(std::string("context.ring_needs_flash") == e.msg().id);
            CHECK(message_args{{"method", label}} == e.msg().args);
            CHECK_THAT(e.reason(), Catch::EndsWith("needs training.flash_attention"));
        }
        CHECK(thrown);
        CHECK_NOTHROW(parse_scenario(doc(method, true)));
    }
    for (const char* method : {"ulysses", "allgather"}) {
        INFO(method);
        CHECK_NOTHROW(parse_scenario(doc(method, false)));
    }
    // The rule is the context rules' own, not only the parser's: a scenario edited after parsing.
    scenario ring = llama(1, 2, "ring");
    ring.training.flash_attention = false;
    CHECK_THROWS_WITH(check_context_parallel(ring), Catch::StartsWith("parallel.cp: Ring attention merges"));
}
