// A part of the search as JSON (tslab/plan-part@1) and the merge of such parts: the browser runs
// the parts in separate Web Workers, each its own wasm instance, and merges them in one of them as
// run_plan merges its threads (plan_search::merged). Doubles are written with 17 significant
// digits, so a part read back holds the same numbers and the merge the same result.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/json_fields.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/planner.hpp"

namespace tslab {

namespace {

constexpr double huge = std::numeric_limits<double>::max();

json search_entry_json(const plan_entry& e) {
    // The result's choice, flattened (keys are sorted either way), with the search's numbers.
    const json choice = choice_json(e.choice);
    json j = choice.at("parallel");
    for (const auto& [key, value] : choice.items())
        if (key != "parallel") j[key] = value;
    j["time_s"] = e.time_s, j["memory_bytes"] = e.memory_bytes, j["headroom_bytes"] = e.headroom_bytes, j["order"] = e.order;
    return j;
}

// What a plan of the search may be: its GPUs (dp·tp·pp·cp, each degree at most that), vpp at most
// the layers, the micro-batch at most the global batch. The merge re-times listed plans with the
// full report, so a part from elsewhere must not name a plan the search could not have made.
struct entry_limits {
    std::int64_t gpus = 1, layers = 1, global_batch = 1;
};

plan_entry read_search_entry(const json& j, const std::string& path, const entry_limits& lim) {
    field_reader r(j, path);
    plan_entry e;
    plan_choice& c = e.choice;
    for (auto [key, v] : {std::pair{"dp", &c.dp}, {"tp", &c.tp}, {"pp", &c.pp}, {"ep", &c.ep}, {"etp", &c.etp}, {"cp", &c.cp}})
        *v = r.integer(key, 1, 1, lim.gpus);
    c.vpp = r.integer("vpp", 1, 1, lim.layers);
    c.micro_batch = r.integer("micro_batch", 1, 1, lim.global_batch);
    if (c.dp * c.tp * c.pp * c.cp != lim.gpus)  // each ≤ gpus ≤ 65536: no overflow before the product exceeds it
        throw input_error(path, msg("plan.part_mismatch", {{"what", "dp·tp·pp·cp"}, {"expected", std::to_string(lim.gpus)}}));
    static const std::vector<std::string> methods = row_names(cp_method_rows), modes = row_names(recompute_rows),
                                          schedules = row_names(schedule_rows);
    c.cp_method = static_cast<std::size_t>(find_row(cp_method_rows, r.choice("cp_method", methods.front(), methods)) - cp_method_rows.data());
    c.sp = r.boolean("sp", false);
    c.zero = static_cast<int>(r.integer("zero", 0, 0, zero_stage_rows.back().stage));
    c.recompute = find_row(recompute_rows, r.choice("recompute", modes.front(), modes))->kind;
    c.schedule = find_row(schedule_rows, r.choice("schedule", schedules.front(), schedules))->kind;
    c.offload_optimizer = r.number("offload_optimizer", 0, 0, 1);
    c.tp_comm = r.boolean("tp_comm", false);
    e.time_s = r.number("time_s", 0, 0, huge);
    e.memory_bytes = r.number("memory_bytes", 0, 0, huge);
    e.headroom_bytes = r.number("headroom_bytes", 0, -huge, huge);
    e.order = r.integer("order", 0, 0, std::numeric_limits<std::int64_t>::max());
    r.finish();
    return e;
}

json entries_json(const std::vector<plan_entry>& v) {
    json out = json::array();
    for (const auto& e : v) out.push_back(search_entry_json(e));
    return out;
}

std::vector<plan_entry> read_entries(const json* j, const std::string& path, const entry_limits& lim) {
    std::vector<plan_entry> out;
    if (!j) return out;
    if (!j->is_array()) throw input_error(path, msg("input.expected_array", {{"got", json_type_name(*j)}}));
    for (std::size_t i = 0; i < j->size(); ++i) out.push_back(read_search_entry((*j)[i], fmt::format("{}[{}]", path, i), lim));
    return out;
}

std::optional<plan_entry> read_optional_entry(const json* j, const std::string& path, const entry_limits& lim) {
    if (!j || j->is_null()) return std::nullopt;
    return read_search_entry(*j, path, lim);
}

}  // namespace

plan_options part_options(const plan_options& o, int parts) {
    plan_options each = o;
    each.max_candidates = std::max<std::int64_t>(1, (o.max_candidates + parts - 1) / parts);
    return each;
}

json plan_search::part_json() const {
    const auto& p = progress_;
    return json{{"schema", "tslab/plan-part@1"},
                {"gpus", gpus_},
                {"part", part_},
                {"parts", parts_},
                {"progress",
                 {{"considered", p.considered},
                  {"evaluated", p.evaluated},
                  {"fitting", p.fitting},
                  {"timed", p.timed},
                  {"groups_done", p.groups_done},
                  {"groups_total", p.groups_total},
                  {"done", p.done},
                  {"capped", p.capped}}},
                {"pipeline_cache", {{"hits", hits_}, {"misses", misses_}}},
                {"elapsed_s", elapsed_s_},
                {"best", entries_json(best_)},
                {"front", entries_json(front_)},
                {"closest", closest_ ? search_entry_json(*closest_) : json(nullptr)},
                {"baseline_best", baseline_best_ ? search_entry_json(*baseline_best_) : json(nullptr)}};
}

// One part's state, read into a fresh plan_search(base, part_options(o, n), k, n) of the same part.
void plan_search::load_part(const json& j, const std::string& path) {
    field_reader r(j, path);
    if (r.text("schema", "") != "tslab/plan-part@1")
        throw input_error(r.path_of("schema"), msg("plan.part_mismatch", {{"what", "schema"}, {"expected", "tslab/plan-part@1"}}));
    for (auto [key, want] : {std::pair{"gpus", gpus_}, {"part", std::int64_t{part_}}, {"parts", std::int64_t{parts_}}})
        if (r.integer(key, -1, -1, max_plan_gpus) != want)
            throw input_error(r.path_of(key), msg("plan.part_mismatch", {{"what", key}, {"expected", std::to_string(want)}}));
    const json* prog = r.object("progress");
    if (!prog) throw input_error(r.path_of("progress"), msg("input.missing"));
    field_reader q(*prog, r.path_of("progress"));
    constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
    auto& p = progress_;
    for (auto [key, v] : {std::pair{"considered", &p.considered},
                          {"evaluated", &p.evaluated},
                          {"fitting", &p.fitting},
                          {"timed", &p.timed},
                          {"groups_done", &p.groups_done}})
        *v = q.integer(key, 0, 0, most);
    if (q.integer("groups_total", 0, 0, most) != p.groups_total)
        throw input_error(q.path_of("groups_total"),
                          msg("plan.part_mismatch", {{"what", "groups_total"}, {"expected", std::to_string(p.groups_total)}}));
    p.done = q.boolean("done", false), p.capped = q.boolean("capped", false);
    q.finish();
    if (const json* cache = r.object("pipeline_cache")) {
        field_reader c(*cache, r.path_of("pipeline_cache"));
        hits_ = c.integer("hits", 0, 0, most), misses_ = c.integer("misses", 0, 0, most);
        c.finish();
    }
    elapsed_s_ = r.number("elapsed_s", 0, 0, huge);
    const entry_limits lim{gpus_, base_.model.layers, base_.training.global_batch};
    best_ = read_entries(r.raw("best"), r.path_of("best"), lim);
    front_ = read_entries(r.raw("front"), r.path_of("front"), lim);
    closest_ = read_optional_entry(r.raw("closest"), r.path_of("closest"), lim);
    baseline_best_ = read_optional_entry(r.raw("baseline_best"), r.path_of("baseline_best"), lim);
    r.finish();
}

plan_search plan_search::merged_from_json(const scenario& base, const plan_options& o, const json& parts) {
    if (!parts.is_array() || parts.empty()) throw input_error("parts", msg("input.must_be_non_empty_array"));
    if (parts.size() > static_cast<std::size_t>(max_plan_threads))
        throw input_error(
            "parts", msg("input.out_of_range", {{"value", std::to_string(parts.size())}, {"lo", "1"}, {"hi", std::to_string(max_plan_threads)}}));
    const int n = static_cast<int>(parts.size());
    check_plan_gpus(base, o);
    std::vector<plan_search> searches;
    for (int k = 0; k < n; ++k) {
        searches.emplace_back(base, part_options(o, n), k, n);
        searches.back().load_part(parts[static_cast<std::size_t>(k)], fmt::format("parts[{}]", k));
    }
    return merged(std::move(searches));
}

std::string plan_merge_json_text(const std::string& scenario_text, const std::string& options_text, const std::string& parts_text) {
    const scenario s = parse_scenario_text(scenario_text);
    const plan_options o = parse_plan_options_text(options_text);
    return plan_to_json(plan_search::merged_from_json(s, o, parse_json(parts_text, "parts")).result()).dump(2);
}

}  // namespace tslab
