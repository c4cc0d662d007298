// L7 side by side (context_methods.hpp): Ulysses, Ring, USP and all-gather CP bytes per layer against the
// papers' closed forms, zig-zag causal balance, unavailable methods with their reason, the 128K trial.
#include <catch2/catch.hpp>

#include "tslab/context_methods.hpp"

using namespace tslab;

namespace {

const context_method_row& row(const std::vector<context_method_row>& rows, const std::string& id) {
    for (const auto& r : rows)
        if (r.id == id) return r;
    FAIL("no row " << id);
    return rows.front();
}

const context_method_item& item(const context_method_row& r, const std::string& what) {
    for (const auto& it : r.items)
        if (it.what.find(what) != std::string::npos) return it;
    FAIL("no item " << what << " in " << r.id);
    return r.items.front();
}

json scenario_doc(const json& model, long tp, long cp, const char* method, long seq) {
    return json{{"model", model},
                {"cluster", "dgx-h100"},
                {"parallel", {{"tp", tp}, {"cp", cp}, {"cp_method", method}, {"sp", tp > 1}}},
                {"training", {{"seq_len", seq}}}};
}

// An MHA model (kv_heads = heads), so Q, K, V and the output each carry N·h per sequence.
const json mha = {{"layers", 4}, {"hidden", 4096}, {"heads", 32}, {"kv_heads", 32}, {"head_dim", 128}, {"ffn_hidden", 11008}, {"vocab", 32000}};

}  // namespace

TEST_CASE("Ulysses: four All-to-Alls of N·h/P per rank in the forward, the same again backward", "[context_methods]") {
    // Jacobs et al. arXiv 2309.14509 §3.2: Q, K, V and the output each move N·h/P per GPU in an
    // All-to-All; 4·N·h/P per layer forward. N = 32768, h = 4096, P = 8, bf16 (2 B), b = 1.
    const auto rows = context_methods(scenario_doc(mha, 1, 8, "ulysses", 32768));
    const auto& u = row(rows, "ulysses");
    REQUIRE(u.available);
    const double forward = 4.0 * 32768 * 4096 / 8 * 2;
    CHECK(u.bytes == Approx(2 * forward));
    // nccl-tests All-to-All: a rank sends (P − 1)/P of its buffer (doc/PERFORMANCE.md).
    CHECK(u.wire_bytes == Approx(2 * forward * 7 / 8));
    CHECK(item(u, "qkv").calls == Approx(2));
    CHECK(item(u, "output").calls == Approx(2));
    CHECK(u.ulysses == 8);
}

TEST_CASE("Ring: cp − 1 K/V block passes per layer forward, each b·(s/cp)·2·h_kv·d·e", "[context_methods]") {
    // Liu et al. arXiv 2310.01889 §3: each of the cp hosts passes its K/V block on cp − 1 times;
    // the backward passes K/V and dK/dV (2(cp − 1)). Llama 3 8B: 8 KV heads × 128, cp 4, s 32768.
    const auto rows = context_methods(scenario_doc("llama3-8b", 1, 4, "ring", 32768));
    const auto& r = row(rows, "ring");
    REQUIRE(r.available);
    const auto& pass = item(r, "ring");
    CHECK(pass.bytes == Approx(32768.0 / 4 * 2 * 8 * 128 * 2));
    CHECK(pass.calls == Approx(3 * (4 - 1)));
    CHECK(pass.under_attention);
    CHECK(pass.exposed_s <= pass.time_s);
    CHECK(r.kernel_keys == Approx(32768.0 / 4));  // one block per kernel call
}

TEST_CASE("USP: Ulysses All-to-Alls over u, ring K/V passes over cp / u, each of b·(s/cp)·h per tensor", "[context_methods]") {
    // Fang and Zhao arXiv 2405.07719 section 3: Ulysses inside groups of u ranks, Ring attention across
    // the r = cp / u groups. MHA with a = 12 heads of 128 (h = 1536), tp 1, cp 8: the largest Ulysses
    // degree dividing both cp and the heads is u = 4, so r = 2. N = 32768, b = 1, bf16 (e = 2 B).
    // Ulysses part (Jacobs et al. arXiv 2309.14509 section 3.2 with P → u over the group's N/r tokens):
    // each rank holds (N/r)/u = N/cp = 4096 tokens, so Q, K, V and the output each move N·h/cp per rank:
    //   QKV All-to-All 4096·3·1536·2 = 37,748,736 B; output All-to-All 4096·1536·2 = 12,582,912 B;
    //   once forward and once backward each (the backward's All-to-Alls of the gradients are the same size).
    // Ring part (Liu et al. arXiv 2310.01889 section 3, ring of r hosts): a block holds the N/r tokens
    // for the rank's h/u heads, K and V: (N/r)·2·(h/u)·e = 16384·2·384·2 = 25,165,824 B; r − 1 = 1 pass
    // forward and 2(r − 1) = 2 backward (K/V and dK/dV): 3 calls.
    //   per layer and micro-batch: 2·37,748,736 + 2·12,582,912 + 3·25,165,824 = 176,160,768 B.
    const json mha12 = {{"layers", 4}, {"hidden", 1536}, {"heads", 12}, {"kv_heads", 12}, {"head_dim", 128}, {"ffn_hidden", 4096}, {"vocab", 32000}};
    const auto rows = context_methods(scenario_doc(mha12, 1, 8, "usp", 32768));
    const auto& u = row(rows, "usp");
    REQUIRE(u.available);
    CHECK(4 == u.ulysses);
    CHECK(2 == u.ring);
    const auto& qkv = item(u, "qkv");
    CHECK(37'748'736.0 == Approx(qkv.bytes));
    CHECK(2.0 == Approx(qkv.calls));
    CHECK(37'748'736.0 * 3 / 4 == Approx(qkv.wire_bytes));  // nccl-tests All-to-All: (u − 1)/u of the buffer leaves a rank
    const auto& out = item(u, "output");
    CHECK(12'582'912.0 == Approx(out.bytes));
    CHECK(2.0 == Approx(out.calls));
    const auto& pass = item(u, "ring");
    CHECK(25'165'824.0 == Approx(pass.bytes));
    CHECK(3.0 == Approx(pass.calls));
    CHECK(pass.under_attention);
    CHECK(176'160'768.0 == Approx(u.bytes));
    CHECK(32768.0 / 2 == Approx(u.kernel_keys));  // one ring block of N/r keys per kernel call
}

TEST_CASE("All-gather CP: K and V of the whole sequence gathered, dK/dV reduce-scattered", "[context_methods]") {
    // Llama 3 arXiv 2407.21783 §3.3.2: all-gather K and V, compute attention for the local Q chunks.
    // Gathered buffer s·2·h_kv·d·e; nccl-tests All-Gather sends (n − 1)/n of it per rank.
    const auto rows = context_methods(scenario_doc("llama3-8b", 1, 8, "allgather", 65536));
    const auto& a = row(rows, "allgather");
    REQUIRE(a.available);
    const double gathered = 65536.0 * 2 * 8 * 128 * 2;
    const auto& g = item(a, "allgather");
    CHECK(g.bytes == Approx(gathered));
    CHECK(g.wire_bytes == Approx(gathered * 7 / 8));
    CHECK(g.calls == Approx(2));  // forward, and again for the backward
    CHECK(item(a, "reducescatter").calls == Approx(1));
    CHECK(a.kv_bytes == Approx(gathered));
    CHECK(a.kernel_keys == Approx(65536));  // the local queries see every key
}

TEST_CASE("Zig-zag chunks balance causal attention exactly — contiguous chunks do not", "[context_methods]") {
    // Causal pairs of chunk [a, a + c) = c·a + c(c + 1)/2. Contiguous: rank i has a = i·c, so
    // busiest / mean = (c(n − 1) + (c + 1)/2) / (c(n − 1)/2 + (c + 1)/2) → (2n − 1)/n.
    const std::int64_t n = 8;
    const double s = 131072, c = s / n;
    const causal_balance b = causal_work(n, s);
    CHECK(b.zigzag_ratio == Approx(1).epsilon(1e-15));
    for (double w : b.zigzag) CHECK(w == b.zigzag.front());
    const double z = s / (2 * n);
    CHECK(b.zigzag.front() == Approx(z * z * (2 * n - 1) + z * (z + 1)));
    CHECK(b.contiguous_ratio == Approx((c * (n - 1) + (c + 1) / 2) / (c * (n - 1) / 2 + (c + 1) / 2)));
    CHECK(b.contiguous_ratio == Approx(15.0 / 8).epsilon(1e-4));
    CHECK(causal_work(1, s).contiguous_ratio == 1);
}

TEST_CASE("A method the model cannot split is listed with the rule it breaks", "[context_methods]") {
    // Llama 3 8B at tp 8 has 32 / 8 = 4 heads per rank: Ulysses degree 8 cannot split them.
    const auto rows = context_methods(scenario_doc("llama3-8b", 8, 8, "ring", 131072));
    const auto& u = row(rows, "ulysses");
    CHECK_FALSE(u.available);
    CHECK_THAT(u.reason, Catch::Contains("parallel.cp") && Catch::Contains("does not divide the heads per TP rank"));
    CHECK(row(rows, "usp").available);  // USP takes Ulysses 4 × ring 2
    CHECK(row(rows, "usp").ulysses == 4);
    const auto none = context_methods(scenario_doc("llama3-8b", 8, 1, "ring", 131072));
    for (const auto& r : none) CHECK(r.available == (r.id == "sp"));
}

TEST_CASE("Trial: one 128K sequence does not fit at CP 1 and fits at CP 8, with CP traffic on the network", "[context_methods]") {
    // Llama 3 8B, 131072 tokens, TP 8 + SP, 1F1B on one stage. Activations are linear in s/cp with
    // FlashAttention (Korthikanti et al. arXiv 2205.05198 Table 2: 34sbh/t), so CP 8 keeps 1/8.
    const auto rows = context_methods(scenario_doc("llama3-8b", 8, 8, "ring", 131072));
    const auto& sp = row(rows, "sp");
    const auto& ring = row(rows, "ring");
    CHECK_FALSE(sp.fits);
    CHECK(ring.fits);
    CHECK(sp.activation_bytes / ring.activation_bytes == Approx(8).epsilon(1e-9));
    CHECK(ring.active);
    CHECK(ring.bytes > 0);
    CHECK(item(ring, "ring").link == "inter");  // TP fills the node; the cp group spans nodes
    CHECK(ring.balance_zigzag == 1);
}

TEST_CASE("tslab context JSON: every method, the slider's stops, the balance of the cp group", "[context_methods]") {
    const json out = json::parse(context_json_text(scenario_doc("llama3-8b", 8, 8, "ring", 131072).dump()));
    CHECK(out["schema"] == "tslab/context@1");
    CHECK(out["methods"].size() == 5);
    CHECK(out["seq_stops"].front() == 4096);
    CHECK(out["seq_stops"].back() == 1048576);
    CHECK(out["balance"]["ranks"] == 8);
    CHECK(out["balance"]["per_rank"][2]["chunks"] == json::array({2, 13}));
}

TEST_CASE("The cp = 1 row of a scenario with a fixed node count sizes its own cluster", "[context_methods]") {
    // 8 nodes hold TP 8 × CP 8 = 64 GPUs; the SP row has 8 GPUs, so it cannot keep "nodes": 8 (scenario_rules).
    json doc = scenario_doc("llama3-8b", 8, 8, "ring", 131072);
    doc["cluster"] = {{"preset", "dgx-h100"}, {"nodes", 8}};
    const auto rows = context_methods(doc);
    CHECK(row(rows, "sp").available);
    CHECK(row(rows, "ring").available);
}
