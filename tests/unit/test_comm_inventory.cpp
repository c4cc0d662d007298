// The step's communication inventory: which collectives, their sizes, counts and exposed time.
#include <catch2/catch.hpp>

#include "tslab/comm_inventory.hpp"
#include "tslab/report.hpp"
#include "tslab/step_model.hpp"

using namespace tslab;
using Catch::Matchers::Contains;

namespace {
scenario make(const char* text) { return parse_scenario(json::parse(text)); }
comm_inventory inventory(const scenario& s) { return build_comm_inventory(s, build_mesh(mesh_spec_of(s)), count_params(s.model)); }
const comm_item* find(const comm_inventory& c, const std::string& what_part) {
    for (const auto& it : c.items)
        if (it.what.find(what_part) != std::string::npos) return &it;
    return nullptr;
}
}  // namespace

TEST_CASE("dense TP + DP: gradient AllReduce and per-layer TP AllReduce") {
    // gpt-7.5b (36 layers, h 4096), tp 8, dp 4, 4 nodes, bf16, seq 2048, b 1, global 32 -> m 8.
    const auto s = make(R"({"model":"gpt-7.5b","cluster":"dgx-h100","parallel":{"tp":8,"dp":4},
                            "training":{"seq_len":2048,"micro_batch":1,"global_batch":32}})");
    const auto c = inventory(s);
    CHECK(c.source == "preset: dgx-h100");
    const auto pc = count_params(s.model);
    const auto* dp = find(c, "gradient AllReduce (dense)");
    REQUIRE(dp);
    CHECK(2.0 * static_cast<double>(pc.total) / 8 == Approx(dp->call.bytes));  // bf16 grads of the tp shard
    CHECK(dp->count == 1);
    CHECK(dp->call.link == link_class::inter);  // dp stride 8: one member per node
    const auto* tp = find(c, "tp AllReduce");
    REQUIRE(tp);
    CHECK(1.0 * 2048 * 4096 * 2 == Approx(tp->call.bytes));  // b·s·h·2 bytes
    CHECK(4.0 * 8 * 36 == tp->count);  // 2 forward + 2 backward, per layer, per micro-batch
    CHECK(tp->call.link == link_class::intra);
    CHECK(tp->per == "layer/micro-batch");
}

TEST_CASE("sequence parallel, ZeRO-1 and ZeRO-3 change the ops, not the idea") {
    const auto sp = inventory(make(R"({"model":"gpt-7.5b","parallel":{"tp":8,"dp":2,"sp":true,"zero":1},
                                       "training":{"global_batch":8}})"));
    REQUIRE(find(sp, "sp AllGather"));
    REQUIRE(find(sp, "sp ReduceScatter"));
    CHECK_FALSE(find(sp, "tp AllReduce"));
    REQUIRE(find(sp, "gradient ReduceScatter (dense, ZeRO-1)"));
    REQUIRE(find(sp, "parameter AllGather after the update"));
    const auto z3 = inventory(make(R"({"model":"gpt-7.5b","parallel":{"dp":8,"zero":3},"training":{"global_batch":16}})"));
    const auto* ag = find(z3, "parameter AllGather per layer");
    REQUIRE(ag);
    CHECK(2.0 * 2 * 36 == ag->count);  // forward + backward, m = 2, 36 layers
    const auto pc = count_params(parse_scenario(json::parse(R"({"model":"gpt-7.5b"})")).model);
    CHECK(2.0 * static_cast<double>(pc.total) / 36 == Approx(ag->call.bytes));
}

TEST_CASE("ZeRO-2 reduce-scatters its gradients once per micro-batch under gradient accumulation, ZeRO-1 once per step") {
    // A stage that keeps only gradient shards cannot accumulate whole gradients over m micro-batches
    // (PyTorch FSDP2, pytorch/pytorch PR 126166; DeepSpeed runtime/pipe/engine.py forbids ZeRO-2 with PP).
    // gpt-7.5b, dp 8, global 64 -> m 8.
    const char* z2 = R"({"model":"gpt-7.5b","parallel":{"dp":8,"zero":2},"training":{"global_batch":64}})";
    const auto inv = inventory(make(z2));
    const auto* rs = find(inv, "gradient ReduceScatter (dense, ZeRO-2)");
    REQUIRE(rs);
    CHECK(8.0 == rs->count);
    CHECK(rs->per == "micro-batch");
    const auto pc = count_params(make(z2).model);
    CHECK(2.0 * static_cast<double>(pc.total) == Approx(rs->call.bytes));  // each round moves the whole bf16 gradients
    const auto z1 = inventory(make(R"({"model":"gpt-7.5b","parallel":{"dp":8,"zero":1},"training":{"global_batch":64}})"));
    const auto* rs1 = find(z1, "gradient ReduceScatter (dense, ZeRO-1)");
    REQUIRE(rs1);
    CHECK(1.0 == rs1->count);
    CHECK(rs1->per == "step");
    // One micro-batch per step: nothing to accumulate, one round.
    const auto one = inventory(make(R"({"model":"gpt-7.5b","parallel":{"dp":8,"zero":2},"training":{"global_batch":8}})"));
    const auto* rs2 = find(one, "gradient ReduceScatter (dense, ZeRO-2)");
    REQUIRE(rs2);
    CHECK(1.0 == rs2->count);
    CHECK(rs2->per == "step");
}

TEST_CASE("MoE: EP dispatch and combine carry tokens x top_k x hidden x bytes") {
    // kimi-k2: h 7168, top_k 8, 61 layers (1 dense); pp 4 -> 16 layers on stage 0, all MoE but 1
    // taken as min(16, 60) = 16 MoE layers; ep 4, dp 8 (expert DP 2); seq 4096, m = 2.
    const auto s = make(R"({"model":"kimi-k2","cluster":"dgx-h100","parallel":{"dp":8,"ep":4,"pp":4},
                            "training":{"seq_len":4096,"micro_batch":1,"global_batch":16}})");
    const auto c = inventory(s);
    const auto* d = find(c, "ep dispatch");
    REQUIRE(d);
    CHECK(4096.0 * 8 * 7168 * 2 == Approx(d->call.bytes));
    CHECK(2.0 * 2 * 16 == d->count);
    CHECK(d->per == "MoE layer/micro-batch");
    REQUIRE(find(c, "ep combine"));
    const auto* e = find(c, "gradient AllReduce (expert)");
    REQUIRE(e);
    CHECK(e->call.ranks == 2);
    // ep = dp·cp leaves one expert replica: no expert gradient reduction.
    CHECK_FALSE(find(inventory(make(R"({"model":"kimi-k2","parallel":{"dp":8,"ep":8},"training":{"global_batch":8}})")), "(expert)"));
    const auto* pp = find(c, "pp activation");
    REQUIRE(pp);
    CHECK(2.0 * 2 == pp->count);
}

TEST_CASE("context parallel: ring K/V passes and Ulysses All-to-All") {
    // gpt-7.5b: 32 heads × 128; cp 4, seq 8192 -> 2048 tokens per rank; K+V = 2·32·128 wide.
    const auto ring = inventory(make(R"({"model":"gpt-7.5b","parallel":{"cp":4},"training":{"seq_len":8192,"global_batch":2}})"));
    const auto* kv = find(ring, "cp ring K/V");
    REQUIRE(kv);
    CHECK(2048.0 * 2 * 32 * 128 * 2 == Approx(kv->call.bytes));
    CHECK(3.0 * 3 * 2 * 36 == kv->count);  // 3(cp-1) per layer per micro-batch, m = 2
    const auto uly =
        inventory(make(R"({"model":"gpt-7.5b","parallel":{"cp":4,"cp_method":"ulysses"},"training":{"seq_len":8192,"global_batch":2}})"));
    const auto* qkv = find(uly, "cp ulysses qkv all-to-all");
    REQUIRE(qkv);
    CHECK(2048.0 * 3 * 32 * 128 * 2 == Approx(qkv->call.bytes));
    REQUIRE(find(uly, "cp ulysses output all-to-all"));
}

TEST_CASE("overlap hides time, bytes stay put") {
    const char* base = R"({"model":"gpt-7.5b","parallel":{"tp":8,"dp":2},"training":{"global_batch":4,"overlap":{"dp":%s,"tp":%s}}})";
    char a[512], b[512];
    std::snprintf(a, sizeof a, base, "0", "0");
    std::snprintf(b, sizeof b, base, "0.95", "0.95");
    const auto c0 = inventory(make(a)), c95 = inventory(make(b));
    REQUIRE(c0.items.size() == c95.items.size());
    for (std::size_t i = 0; i < c0.items.size(); ++i) {
        CHECK(c0.items[i].call.bytes == c95.items[i].call.bytes);
        CHECK(c0.items[i].call.wire_bytes == c95.items[i].call.wire_bytes);
        CHECK(c0.items[i].step_time_s() * 0.05 == Approx(c95.items[i].step_exposed_s()));
    }
    CHECK(c0.time_s == Approx(c95.time_s));
    CHECK(c95.exposed_s == Approx(0.05 * c0.time_s));
}

TEST_CASE("report JSON carries mesh and comm with the contract's field names") {
    const json r = json::parse(report_json_text(R"({"model":"gpt-7.5b","parallel":{"tp":16,"dp":1},"cluster":"dgx-h100"})"));
    const json& g = r["mesh"]["groups"].at(0);
    std::vector<std::string> keys;
    for (auto it = g.begin(); it != g.end(); ++it) keys.push_back(it.key());
    CHECK(std::vector<std::string>{"axis", "size", "link", "ranks", "nodes"} == keys);
    CHECK(r["mesh"]["warnings"].at(0) == "tp group of 16 spans 2 nodes: its per-layer AllReduce crosses the NIC");
    const json& item = r["comm"]["items"].at(0);
    keys.clear();
    for (auto it = item.begin(); it != item.end(); ++it) keys.push_back(it.key());
    const std::vector<std::string> first = {"what", "op", "axis", "per", "bytes", "link", "time_s", "exposed_s"};
    CHECK(first == std::vector<std::string>(keys.begin(), keys.begin() + 8));
    CHECK(item["link"] == "mixed");
    CHECK(r["comm"]["source"] == "preset: dgx-h100");
}

TEST_CASE("EP and CP axes alone: the same totals as the whole step communication's") {
    // MoE with EP over nodes and every CP method, under every recompute mode and ZeRO stage, with
    // the DP buckets and the TP overlap on: the other axes' passes leave EP and CP as they are.
    for (const auto& method : cp_method_rows)
        for (const char* rec : {"none", "selective", "full"})
            for (int zero : {0, 1, 3}) {
                json doc = json::parse(R"({"model": {"preset": "deepseek-v3", "layers": 8}, "cluster": "dgx-h100",
                    "parallel": {"dp": 8, "tp": 2, "cp": 4, "ep": 16, "pp": 2, "sp": true},
                    "training": {"seq_len": 8192, "micro_batch": 1, "global_batch": 64,
                                 "overlap": {"tp_comm": true, "grad_reduce": true, "param_gather": true}}})");
                doc["parallel"]["cp_method"] = method.name;
                doc["parallel"]["zero"] = zero;
                doc["training"]["recompute"] = rec;
                const scenario s = make(doc.dump().c_str());
                const mesh_layout mesh = build_mesh(mesh_spec_of(s));
                const param_counts pc = count_params(s.model);
                const compute_estimate c = estimate_compute(s);
                std::vector<axis_comm> want;
                for (const auto& a : axis_totals(step_comm_of(s, mesh, pc, c, s.training.microbatches(s.parallel)).inventory))
                    if (a.axis == "ep" || a.axis == "cp") want.push_back(a);
                INFO(method.name << " " << rec << " zero " << zero);
                REQUIRE(want.size() == 2);
                CHECK(ep_cp_axes_of(s, mesh, pc, c) == want);
            }
}

TEST_CASE("DualPipe reduces and gathers both stages a rank holds once per step, one stage per micro-batch or layer") {
    // DeepSeek-V3 section 3.2.1: DualPipe keeps two copies of the parameters (stage r and stage
    // p-1-r on rank r); gpt-7.5b's 36 layers on 4 stages, 9 per stage, dp 2.
    const auto with = [](const char* schedule, int zero) {
        return inventory(make((std::string(R"({"model":"gpt-7.5b","cluster":"dgx-h100","parallel":{"pp":4,"dp":2,"zero":)") + std::to_string(zero) +
                               R"(},"training":{"seq_len":2048,"micro_batch":1,"global_batch":16,"schedule":")" + schedule + R"("}})")
                                  .c_str()));
    };
    const auto bytes = [](const comm_inventory& c, const char* what) {
        const comm_item* it = find(c, what);
        REQUIRE(it);
        return it->call.bytes * it->count;
    };
    for (int zero : {0, 1}) {
        const char* grads = zero == 0 ? "gradient AllReduce (dense)" : "gradient ReduceScatter (dense";
        CHECK(bytes(with("dualpipe", zero), grads) == Approx(2 * bytes(with("1f1b", zero), grads)));
    }
    CHECK(bytes(with("dualpipe", 1), "parameter AllGather after the update") ==
          Approx(2 * bytes(with("1f1b", 1), "parameter AllGather after the update")));
    // ZeRO-2's per-micro-batch rounds and ZeRO-3's per-layer exchanges see one stage at a time.
    CHECK(bytes(with("dualpipe", 2), "gradient ReduceScatter (dense") == Approx(bytes(with("1f1b", 2), "gradient ReduceScatter (dense")));
    CHECK(bytes(with("dualpipe", 3), "parameter AllGather per layer") == Approx(bytes(with("1f1b", 3), "parameter AllGather per layer")));
    // DualPipeV's V holds two chunks of one model copy: one stage's worth, as 1F1B.
    CHECK(bytes(with("dualpipev", 1), "gradient ReduceScatter (dense") == Approx(bytes(with("1f1b", 1), "gradient ReduceScatter (dense")));
}

TEST_CASE("the report's comm.axes and step_bytes are the items' sums, axis by axis", "[comm]") {
    const json scn = {{"model", "deepseek-v3"}, {"cluster", "hgx-h800"}, {"parallel", {{"dp", 64}, {"pp", 8}, {"ep", 64}, {"tp", 2}, {"sp", true}}}};
    const json r = json::parse(report_json_text(scn.dump()));
    const json& c = r.at("comm");
    double bytes = 0;
    for (const auto& it : c.at("items")) bytes += it.at("bytes").get<double>() * it.at("count").get<double>();
    CHECK(c.at("step_bytes").get<double>() == Approx(bytes));
    REQUIRE(c.at("axes").size() >= 4);  // dp (or edp), tp, pp, ep
    double time = 0;
    for (const auto& a : c.at("axes")) {
        double t = 0, n = 0;
        for (const auto& it : c.at("items"))
            if (it.at("axis") == a.at("axis")) t += it.at("step_time_s").get<double>(), n += it.at("count").get<double>();
        INFO(a.at("axis").get<std::string>());
        CHECK(a.at("step_time_s").get<double>() == Approx(t));
        CHECK(a.at("count").get<double>() == Approx(n));
        time += a.at("step_time_s").get<double>();
    }
    CHECK(time == Approx(c.at("step_time_s").get<double>()));
}
