// The vocabulary rows (vocabulary.hpp) and presets_json()'s "vocabulary": one row per enum value,
// names round-trip, the parser and the served defaults are the same constants, and the JSON lists
// every row of every table in the core's order.
#include <catch2/catch.hpp>

#include "tslab/errors.hpp"
#include "tslab/memory.hpp"
#include "tslab/mesh.hpp"
#include "tslab/presets.hpp"
#include "tslab/scenario.hpp"
#include "tslab/vocabulary.hpp"

using namespace tslab;

namespace {

// The "name" of each element of a JSON array.
template <class Rows>
void check_names(const json& list, const Rows& rows) {
    REQUIRE(list.is_array());
    REQUIRE(rows.size() == list.size());
    for (std::size_t i = 0; i < rows.size(); ++i) CHECK(std::string(rows[i].name) == list[i]["name"].get<std::string>());
}

}  // namespace

TEST_CASE("enum rows sit at their index and their names round-trip", "[vocabulary]") {
    for (const auto& d : dtype_rows) CHECK(find_row(dtype_rows, to_string(d.kind)) == &describe(d.kind));
    for (const auto& d : recompute_rows) CHECK(find_row(recompute_rows, to_string(d.kind)) == &describe(d.kind));
    for (const auto& d : optimizer_rows) CHECK(find_row(optimizer_rows, to_string(d.kind)) == &describe(d.kind));
    for (const auto& d : cp_method_rows) CHECK(find_row(cp_method_rows, to_string(d.kind)) == &describe(d.kind));
    for (const auto& d : attention_rows) CHECK(find_row(attention_rows, d.name) == &describe(d.kind));
    for (const auto& d : ffn_rows) CHECK(find_row(ffn_rows, d.name) == &describe(d.kind));
    for (const auto& d : norm_rows) CHECK(find_row(norm_rows, d.name) == &describe(d.kind));
    // Storage bytes per element: IEEE fp32 4, bf16/fp16 2, fp8 (E4M3/E5M2) 1.
    CHECK(4 == dtype_bytes(dtype::fp32));
    CHECK(2 == dtype_bytes(dtype::bf16));
    CHECK(1 == dtype_bytes(dtype::fp8));
    CHECK(nullptr == find_row(optimizer_rows, "lion"));
}

TEST_CASE("precision recipes: the default spec is the first row — ZeRO's 16 bytes per parameter", "[vocabulary]") {
    const precision_spec def;
    const recipe_desc& first = recipe_rows[0];
    CHECK(def.recipe == first.name);
    CHECK(def.params == first.params);
    CHECK(def.grads == first.grads);
    CHECK(def.master == first.master);
    CHECK(def.optimizer == first.optimizer);
    CHECK(def.activations == first.activations);
    CHECK(def.gemm == first.gemm);
    // ZeRO (arXiv 1910.02054 section 3.1): 2 + 2 + 4 + 2·4 = 16 bytes per parameter with Adam.
    CHECK(16 ==
          dtype_bytes(first.params) + dtype_bytes(first.grads) + dtype_bytes(first.master) +
              describe(optimizer_kind::adamw).moments * dtype_bytes(first.optimizer));
    for (const auto& r : recipe_rows) {
        INFO(r.name);
        const scenario s = parse_scenario(json{{"training", {{"precision", r.name}}}});
        CHECK(s.training.precision.recipe == r.name);
        CHECK(s.training.precision.gemm == r.gemm);
        CHECK(s.training.precision.optimizer == r.optimizer);
    }
}

TEST_CASE("presets JSON: vocabulary lists every row in the core's order, existing keys unchanged", "[vocabulary][presets]") {
    const json all = presets_json();
    for (const char* key : {"schema", "models", "clusters", "gpus"}) CHECK(all.contains(key));
    const json& v = all.at("vocabulary");
    check_names(v["schedules"], schedule_rows);
    check_names(v["optimizers"], optimizer_rows);
    check_names(v["precision_recipes"], recipe_rows);
    check_names(v["precision_fields"], precision_field_rows);
    check_names(v["recompute_modes"], recompute_rows);
    check_names(v["dtypes"], dtype_rows);
    check_names(v["cp_methods"], cp_method_rows);
    check_names(v["attention_types"], attention_rows);
    check_names(v["ffn_types"], ffn_rows);
    check_names(v["norms"], norm_rows);
    check_names(v["mesh_axes"], mesh_axis_rows);
    CHECK("tp-cp-ep-dp-pp" == v["recommended_order"]);
    const json& one = v["schedules"][1];
    CHECK("1f1b" == one["name"]);
    CHECK("(p−1)(F+B)" == one["bubble_formula"]);
    CHECK("m ≥ 1" == one["microbatch_rule"]);
    const json& dual = v["schedules"][6];
    CHECK("dualpipe" == dual["name"]);
    CHECK("dual" == dual["placement"]);
    CHECK(2 == dual["param_copies"]);
    CHECK(2 == dual["pp_multiple"]);
    CHECK(true == dual["ep_overlap"]);
    CHECK("m even, m ≥ 2p" == dual["microbatch_rule"]);
    CHECK("vpp" == v["schedules"][2]["chunks_per_rank"]);
    CHECK(true == v["schedules"][2]["uses_vpp"]);
    CHECK(8 == v["optimizers"][0]["state_bytes_per_param"]);  // AdamW: 2 fp32 moments
    CHECK(json::array({"fp32", "none"}) == v["precision_fields"][2]["dtypes"]);  // master
}

TEST_CASE("defaults served are the parser's: a scenario of {} reads back every default", "[vocabulary][scenario]") {
    const json d = presets_json()["vocabulary"]["defaults"];
    CHECK("dgx-a100-80gb" == d["cluster"]);
    CHECK("gpt-1.7b" == d["model"]);
    const scenario s = parse_scenario(json::object());
    CHECK(s.model.name == d["model"].get<std::string>());
    CHECK(s.cluster.name == d["cluster"].get<std::string>());
    const json& t = d["training"];
    CHECK(s.training.seq_len == t["seq_len"]);
    CHECK(s.training.micro_batch == t["micro_batch"]);
    CHECK(to_string(s.training.recompute) == t["recompute"].get<std::string>());
    CHECK(s.training.flash_attention == t["flash_attention"]);
    CHECK(s.training.precision.recipe == t["precision"].get<std::string>());
    CHECK(to_string(s.training.optimizer) == t["optimizer"].get<std::string>());
    CHECK(to_string(s.training.schedule) == t["schedule"].get<std::string>());
    CHECK(s.training.reliability.restart_s == t["reliability"]["restart_s"]);
    CHECK(s.training.reliability.gpu_failure_rate_per_hour == t["reliability"]["gpu_failure_rate_per_hour"]);
    const json& p = d["parallel"];
    CHECK(s.parallel.order == p["order"].get<std::string>());
    CHECK(to_string(s.parallel.cp_method) == p["cp_method"].get<std::string>());
    CHECK(s.parallel.zero == p["zero"]);
    CHECK(s.parallel.sp == p["sp"]);
    for (const char* k : {"dp", "tp", "pp", "vpp", "ep", "etp", "cp"}) CHECK(1 == p[k]);
}

TEST_CASE("unknown names get the rows' did-you-mean", "[vocabulary][errors]") {
    auto error_of = [](const json& doc) {
        try {
            parse_scenario(doc);
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(error_of(json{{"training", {{"optimizer", "adamv"}}}}), Catch::Contains("(did you mean adamw?)"));
    CHECK_THAT(error_of(json{{"training", {{"recompute", "ful"}}}}), Catch::Contains("(did you mean full?)"));
    CHECK_THAT(error_of(json{{"parallel", {{"cp_method", "ulyses"}}}}), Catch::Contains("(did you mean ulysses?)"));
    // Every layer type is a row: an unknown name is an error at its path, never a fallback row.
    CHECK_THAT(error_of(json{{"parallel", {{"cp_method", "tree"}}}}), Catch::StartsWith("parallel.cp_method"));
    CHECK_THAT(error_of(json{{"model", {{"attention", "mqa"}}}}), Catch::StartsWith("model.attention") && Catch::Contains("mha|gqa|mla"));
    CHECK_THAT(error_of(json{{"model", {{"ffn_type", "geglu"}}}}), Catch::StartsWith("model.ffn_type"));
    CHECK_THAT(error_of(json{{"model", {{"norm", "rmsnrom"}}}}), Catch::Contains("(did you mean rmsnorm?)"));
    CHECK_THROWS_WITH(parse_axis_order("tp-cp-xp-dp-pp", mesh_spec{}, "parallel.order"),
                      Catch::Contains("axes are tp, cp, ep, dp, pp (did you mean"));
}

TEST_CASE("optimizer states are counted from the row alone", "[vocabulary][memory]") {
    // A 4096 × 11008 hidden matrix and a 4096 vector. AdamW: 2 moments per element (arXiv 1711.05101);
    // SGD: 1 momentum; Muon: 1 momentum on hidden matrices, AdamW's 2 on vectors (Kimi K2 arXiv
    // 2507.20534 section 2.1); Adafactor: rows + cols for a matrix, one value per vector element
    // (arXiv 1804.04235 section 3).
    const double r = 4096, c = 11008;
    CHECK(describe(optimizer_kind::adamw).state_elems(true, r, c) == 2 * r * c);
    CHECK(describe(optimizer_kind::sgd).state_elems(true, r, c) == r * c);
    CHECK(describe(optimizer_kind::muon).state_elems(true, r, c) == r * c);
    CHECK(describe(optimizer_kind::muon).state_elems(false, r, 1) == 2 * r);
    CHECK(describe(optimizer_kind::adafactor).state_elems(true, r, c) == r + c);
    CHECK(describe(optimizer_kind::adafactor).state_elems(false, r, 1) == r);
    for (const auto& d : optimizer_rows) CHECK(optimizer_state_elems(d.kind, true, r, c, 3) == 3 * d.state_elems(true, r, c));
}

TEST_CASE("the planner's knob values are their rows: recompute in search order, every ZeRO stage", "[vocabulary][planner]") {
    constexpr auto order = recompute_search_order();
    REQUIRE(order.size() == recompute_rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) CHECK(describe(order[i]).search_rank == static_cast<int>(i));
    CHECK(order.front() == recompute_kind::none);  // the least recomputed work first
    CHECK(order.back() == recompute_kind::full);
    for (std::size_t z = 0; z < zero_stage_rows.size(); ++z) CHECK(zero_stage_rows[z].stage == static_cast<int>(z));
    CHECK(zero_stage_rows.back().gathers_params);  // ZeRO-3 shards and gathers the parameters (arXiv 1910.02054 section 5)
}

TEST_CASE("ZB-V's padding is its row's: at least 2p − 1 micro-batches generated, others exactly m", "[vocabulary][pipeline]") {
    // arXiv 2401.10241 section 6: the V schedule's steady state needs 2p − 1 micro-batches.
    CHECK(describe(schedule_kind::zbv).generated_microbatches(3, 4) == 7);
    CHECK(describe(schedule_kind::zbv).generated_microbatches(9, 4) == 9);
    for (const auto& d : schedule_rows)
        if (d.kind != schedule_kind::zbv) CHECK(d.generated_microbatches(3, 4) == 3);
}
