// Collective alpha-beta models: nccl-tests busbw factors, alpha/beta limits, hierarchical forms, errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>
#include <fstream>

#include "tslab/collectives.hpp"
#include "tslab/errors.hpp"
#include "tslab/scenario.hpp"

using namespace tslab;
using Catch::Matchers::Contains;

namespace {
// DGX H100 preset tiers: NVLink 450 GB/s, 3 µs; NIC 50 GB/s, 5 µs.
const comm_links h100{{450e9, 3e-6}, {50e9, 5e-6}, "test"};
const link_spec& Li = h100.intra;
const link_spec& Le = h100.inter;
}  // namespace

TEST_CASE("busbw factors follow nccl-tests doc/PERFORMANCE.md for every op and n in {2, 8, 64}") {
    // PERFORMANCE.md: AllReduce 2(n-1)/n; ReduceScatter, AllGather, AllToAll (n-1)/n;
    // Broadcast, Reduce, SendRecv 1.
    struct row {
        collective_op op;
        double n2, n8, n64;
    };
    const row rows[] = {{collective_op::allreduce, 1.0, 1.75, 1.96875},   {collective_op::reducescatter, 0.5, 0.875, 0.984375},
                        {collective_op::allgather, 0.5, 0.875, 0.984375}, {collective_op::alltoall, 0.5, 0.875, 0.984375},
                        {collective_op::broadcast, 1.0, 1.0, 1.0},        {collective_op::reduce, 1.0, 1.0, 1.0},
                        {collective_op::sendrecv, 1.0, 1.0, 1.0}};
    for (const auto& r : rows) {
        const auto& d = describe(r.op);
        CHECK(r.n2 == Approx(d.busbw_factor(2)));
        CHECK(r.n8 == Approx(d.busbw_factor(8)));
        CHECK(r.n64 == Approx(d.busbw_factor(64)));
        for (double n : {2.0, 8.0, 64.0}) {
            // The model reports busbw = algbw × factor, algbw = S / t.
            const auto e = estimate_collective(r.op, 1e8, group_topology::flat(static_cast<std::int64_t>(n), link_class::intra), h100);
            CHECK(e.algbw_Bps == Approx(1e8 / e.time_s));
            CHECK(e.busbw_Bps == Approx(e.algbw_Bps * d.busbw_factor(n)));
        }
    }
}

TEST_CASE("tiny messages are dominated by alpha times rounds") {
    const double S = 1;  // one byte
    const auto g = group_topology::flat(8, link_class::intra);
    const auto ring = estimate_collective(collective_op::allreduce, S, g, h100, collective_algorithm::ring);
    CHECK(14 * Li.latency_s == Approx(ring.time_s).epsilon(1e-6));  // 2(n-1) rounds
    CHECK(ring.rounds == 14);
    const auto rd = estimate_collective(collective_op::allreduce, S, g, h100);
    CHECK(rd.algorithm_name == "recursive_doubling");  // log2 8 = 3 rounds is the fewest
    CHECK(3 * Li.latency_s == Approx(rd.time_s).epsilon(1e-6));
    const auto a2a = estimate_collective(collective_op::alltoall, S, group_topology::flat(64, link_class::inter), h100);
    CHECK(a2a.algorithm_name == "bruck");  // ⌈log2 64⌉ = 6 rounds beat 63
    CHECK(6 * Le.latency_s == Approx(a2a.time_s).epsilon(1e-4));
}

TEST_CASE("huge messages approach factor times S over B") {
    const double S = 1e13;
    const auto g = group_topology::flat(8, link_class::intra);
    struct row {
        collective_op op;
        collective_algorithm a;
        double factor;
    };
    const row rows[] = {{collective_op::allreduce, collective_algorithm::ring, 2.0 * 7 / 8},
                        {collective_op::allreduce, collective_algorithm::rabenseifner, 2.0 * 7 / 8},
                        {collective_op::reducescatter, collective_algorithm::ring, 7.0 / 8},
                        {collective_op::allgather, collective_algorithm::ring, 7.0 / 8},
                        {collective_op::alltoall, collective_algorithm::pairwise, 7.0 / 8},
                        {collective_op::broadcast, collective_algorithm::ring, 1.0},
                        {collective_op::sendrecv, collective_algorithm::direct, 1.0}};
    for (const auto& r : rows) {
        const auto e = estimate_collective(r.op, S, r.op == collective_op::sendrecv ? group_topology::flat(2, link_class::intra) : g, h100, r.a);
        CHECK(r.factor * S / Li.bandwidth_Bps == Approx(e.time_s).epsilon(1e-5));  // α·rounds is < 1e-5 of it
        CHECK(r.factor * S == Approx(e.wire_bytes));
    }
    // The fastest AllReduce of a huge message moves the ring's 2(n-1)/n·S: bus bandwidth = link bandwidth.
    const auto best = estimate_collective(collective_op::allreduce, S, g, h100);
    CHECK(Li.bandwidth_Bps == Approx(best.busbw_Bps).epsilon(1e-6));
}

TEST_CASE("hierarchical AllReduce on 2 nodes x 8 GPUs, worked by hand") {
    // Intra ReduceScatter (ring on 8): 7 α_i + 7/8 S/B_i; inter AllReduce on S/8 over 2 nodes:
    // recursive doubling, 1 round: α_e + S/8 / B_e; intra AllGather: 7 α_i + 7/8 S/B_i.
    const double S = 1e9;
    const double expect = 14 * 3e-6 + 2 * (7.0 / 8) * S / 450e9 + 5e-6 + (S / 8) / 50e9;
    const auto e = estimate_collective(collective_op::allreduce, S, group_topology{16, 2, 8}, h100, collective_algorithm::hierarchical);
    CHECK(expect == Approx(e.time_s).epsilon(1e-9));
    CHECK(e.algorithm_name == "hierarchical(recursive_doubling)");
    CHECK(e.rounds == 15);
    CHECK(e.link == link_class::mixed);
    // It beats the flat ring bound by the NIC: 30 α_e + 2·15/16 S/B_e.
    const auto ring = estimate_collective(collective_op::allreduce, S, group_topology{16, 2, 8}, h100, collective_algorithm::ring);
    CHECK(30 * 5e-6 + 2 * (15.0 / 16) * S / 50e9 == Approx(ring.time_s).epsilon(1e-9));
    CHECK(e.time_s < ring.time_s);
}

TEST_CASE("hierarchical AllReduce on 16 nodes x 8 GPUs, worked by hand") {
    // Inter step over 16 nodes on S/8: Rabenseifner, 2·log2 16 = 8 rounds, 2·15/16 of S/8 on the NIC
    // (ring has the same β but 30 rounds; recursive doubling 4 rounds but 4·S/8).
    const double S = 4e9;
    const double expect = 14 * 3e-6 + 2 * (7.0 / 8) * S / 450e9 + 8 * 5e-6 + 2 * (15.0 / 16) * (S / 8) / 50e9;
    const auto e = estimate_collective(collective_op::allreduce, S, group_topology{128, 16, 8}, h100);
    CHECK(e.algorithm_name == "hierarchical(rabenseifner)");
    CHECK(expect == Approx(e.time_s).epsilon(1e-9));
    CHECK(14 * 3e-6 + 8 * 5e-6 == Approx(e.alpha_s).epsilon(1e-9));
}

TEST_CASE("All-to-All across nodes sends only the (m-1)/m share over the NIC") {
    // 4 nodes × 8: of S, 3/4 leaves the node; with a near-infinite NVLink the NIC share binds.
    const comm_links fast{{1e18, 0}, {50e9, 0}, "test"};
    const double S = 1e9;
    const auto e = estimate_collective(collective_op::alltoall, S, group_topology{32, 4, 8}, fast, collective_algorithm::pairwise);
    CHECK(0.75 * S / 50e9 == Approx(e.beta_s).epsilon(1e-9));
    // Every member on its own node: (n-1)/n crosses.
    const auto flat =
        estimate_collective(collective_op::alltoall, S, group_topology::flat(32, link_class::inter), fast, collective_algorithm::pairwise);
    CHECK(31.0 / 32 * S / 50e9 == Approx(flat.beta_s).epsilon(1e-9));
}

TEST_CASE("overlap changes exposed time, never bytes") {
    const auto e = estimate_collective(collective_op::allgather, 1e8, group_topology::flat(8, link_class::intra), h100);
    CHECK(e.time_s * 0.05 == Approx(e.exposed_s(0.95)));
    CHECK(e.time_s == Approx(e.exposed_s(0)));
}

TEST_CASE("collective query: fields and the cluster preset tiers") {
    const json j = collective_query(json::parse(R"({"op":"allreduce","bytes":1e9,"ranks":16})"));
    CHECK(j["link"] == "mixed");  // 16 ranks on dgx-h100 nodes of 8
    CHECK(j["link_source"] == "preset: dgx-h100");
    CHECK(j["algorithm"] == "hierarchical(recursive_doubling)");
    for (const char* k : {"time_s", "alpha_s", "beta_s", "algbw_Bps", "busbw_Bps", "wire_bytes", "rounds", "exposed_s"}) CHECK(j.contains(k));
    const json t = collective_query(json::parse(R"({"op":"sendrecv","bytes":1e6,"ranks":2,"link":{"bandwidth_Bps":1e9,"latency_s":1e-5}})"));
    CHECK(1e-5 + 1e6 / 1e9 == Approx(t["time_s"].get<double>()));
    const json o = collective_query(json::parse(R"({"op":"allgather","bytes":1e8,"ranks":8,"link":"intra_node","overlap":0.95})"));
    CHECK(o["time_s"].get<double>() * 0.05 == Approx(o["exposed_s"].get<double>()));
}

TEST_CASE("collective query rejects bad input with a clear message") {
    auto err = [](const char* text) {
        try {
            collective_query(json::parse(text));
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(err(R"({"op":"allreduce","bytes":0,"ranks":8})"), Contains("bytes: 0 must be positive"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":-5,"ranks":8})"), Contains("bytes: -5 must be positive"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":1})"), Contains("ranks: 1 must be at least 2"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":-4})"), Contains("ranks: -4 must be at least 2"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":12})"), Contains("ranks: 12 is not a multiple of ranks_per_node = 8"));
    CHECK_THAT(err(R"({"op":"allreduse","bytes":1e6,"ranks":8})"), Contains("unknown collective \"allreduse\"; did you mean allreduce?"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":8,"link":{"bandwidth_Bps":0,"latency_s":1e-6}})"),
               Contains("link.bandwidth_Bps: 0 must be positive"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":8,"algorithm":"rabenseifer"})"), Contains("did you mean rabenseifner?"));
    CHECK_THAT(err(R"({"op":"alltoall","bytes":1e6,"ranks":8,"algorithm":"ring"})"), Contains("ring does not apply to alltoall"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":8,"link":"fast"})"), Contains("link: expected"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":8,"cluster":"dgx-h10"})"), Contains("did you mean dgx-h100?"));
    CHECK_THAT(err(R"({"op":"allreduce","bytes":1e6,"ranks":8,"byte":3})"), Contains("byte: unknown field; did you mean bytes?"));
}

TEST_CASE("Links from a calibration profile name the profile as their source", "[collectives][calibration]") {
    // The CPU example profile (tests/data/calibration, 2-rank run) measured the intra-node tier.
    std::ifstream f(std::string(TSLAB_SOURCE_DIR) + "/tests/data/calibration/cpu-2rank-quick.json");
    REQUIRE(f.good());
    const json profile = json::parse(f);
    const scenario s = parse_scenario(json{{"cluster", {{"preset", "dgx-h100"}, {"calibration", profile}}}});
    const comm_links l = links_of(s.cluster);
    CHECK(l.source.rfind("calibrated: ", 0) == 0);
    CHECK(l.intra.bandwidth_Bps == s.cluster.intra_node.bandwidth_Bps);
    CHECK(l.intra.bandwidth_Bps != 450e9);  // no longer the DGX H100 datasheet's NVLink figure
    CHECK(links_of(parse_scenario(json{{"cluster", "dgx-h100"}}).cluster).source == "preset: dgx-h100");
}

TEST_CASE("a link too slow to deliver is refused, never a null time", "[collectives]") {
    // Issue 15, finding 7: 5e-324 B/s was accepted and every time printed as null.
    CHECK_THROWS_WITH(collective_json_text(R"({"op":"allreduce","bytes":1e9,"ranks":8,"link":{"bandwidth_Bps":5e-324,"latency_s":0}})"),
                      Catch::StartsWith("link.bandwidth_Bps: 4.94066e-324 is below 1e3 B/s"));
    CHECK_THROWS_WITH(collective_json_text(R"({"op":"allreduce","bytes":1e400,"ranks":8})"), Catch::StartsWith("bytes: the number 1e400"));
}

TEST_CASE("a repeated estimate is the fresh one, and each argument it reads changes the answer", "[collectives]") {
    // estimate_collective answers repeats from a per-thread memo; collective_candidates never does,
    // so its fastest candidate (the first of the least time) is the fresh answer to compare with.
    const auto fresh = [](collective_op op, double bytes, const group_topology& g, const comm_links& l, collective_library lib) {
        const auto cs = collective_candidates(op, bytes, g, l, lib);
        return *std::min_element(cs.begin(), cs.end(), [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
    };
    struct ask {
        collective_op op;
        double bytes;
        group_topology g;
        comm_links l;
        collective_library lib;
    };
    const group_topology two_nodes{16, 2, 8};
    const ask base{collective_op::allreduce, 1e8, two_nodes, h100, collective_library::nccl};
    std::vector<ask> asks{base};
    const auto vary = [&](auto change) {
        ask a = base;
        change(a);
        asks.push_back(a);
    };
    vary([](ask& a) { a.op = collective_op::allgather; });
    vary([](ask& a) { a.bytes = 1e3; });
    vary([](ask& a) { a.g = {32, 4, 8}; });
    vary([](ask& a) { a.g = {16, 4, 4}; });
    vary([](ask& a) { a.g = {16, 16, 1}; });
    vary([](ask& a) { a.l.intra.bandwidth_Bps = 45e9; });
    vary([](ask& a) { a.l.intra.latency_s = 3e-3; });
    vary([](ask& a) { a.l.inter.bandwidth_Bps = 5e9; });
    vary([](ask& a) { a.l.inter.latency_s = 5e-3; });
    vary([](ask& a) { a.lib = collective_library::mpich; });
    for (int round = 0; round < 2; ++round)  // the second round is answered by the memo
        for (const ask& a : asks) {
            const collective_estimate got = estimate_collective(a.op, a.bytes, a.g, a.l, std::nullopt, a.lib);
            const collective_estimate want = fresh(a.op, a.bytes, a.g, a.l, a.lib);
            CHECK(got.time_s == want.time_s);
            CHECK(got.algorithm_name == want.algorithm_name);
            CHECK(got.wire_bytes == want.wire_bytes);
        }
    // Every variation above moves the time: none of them is an argument the answer ignores.
    for (std::size_t i = 1; i < asks.size(); ++i)
        CHECK(fresh(asks[i].op, asks[i].bytes, asks[i].g, asks[i].l, asks[i].lib).time_s !=
              fresh(base.op, base.bytes, base.g, base.l, base.lib).time_s);
    // A forced algorithm is its own question: ring after the fastest (hierarchical on two nodes) was asked.
    const auto ring = estimate_collective(base.op, base.bytes, base.g, base.l, collective_algorithm::ring, base.lib);
    CHECK(ring.algorithm == collective_algorithm::ring);
    CHECK(estimate_collective(base.op, base.bytes, base.g, base.l, std::nullopt, base.lib).algorithm != collective_algorithm::ring);
}
