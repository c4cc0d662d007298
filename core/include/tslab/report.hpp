// The report (tslab/report@1): one scenario in, every ledger's figures out, as structs and JSON.
#pragma once

#include <string>

#include "tslab/comm_inventory.hpp"
#include "tslab/compute.hpp"
#include "tslab/json_fields.hpp"
#include "tslab/json_writer.hpp"
#include "tslab/memory.hpp"
#include "tslab/mesh.hpp"
#include "tslab/params.hpp"
#include "tslab/pipeline_cost_model.hpp"
#include "tslab/scenario.hpp"
#include "tslab/schedule_shape.hpp"
#include "tslab/step.hpp"

namespace tslab {

struct report {
    scenario input;
    param_counts params;
    double flops_per_token = 0;  // model FLOPs per trained token (forward + backward), compute.hpp's flops_convention
    std::int64_t microbatches = 0;
    compute_estimate compute;  // L3
    pipeline_shape pipeline;
    // The schedule run on L3's chunk costs with the inventory's exposed P2P: from the simulator
    // under max_schedule_ops, else closed forms (pipeline_cost_model.hpp).
    pipeline_timing timing;
    memory_report memory;
    mesh_layout mesh;
    comm_inventory comm;
    step_result step;
};

// Every model in order: params, compute, mesh, communication, pipeline timing, memory, the step.
// `list_limit` caps the mesh's listed ranks (0: none listed).
// The report lists at most this many ranks per mesh axis: the full listing of a 2048-GPU mesh made
// the JSON ~70 KB and its serialisation dominated report() (the mesh query lists more).
inline constexpr std::int64_t report_list_limit = 64;
report build_report(const scenario& s, std::int64_t list_limit = report_list_limit);

// The report as text (what the facade returns: nlohmann's dump(2) layout, streamed without a
// tree), into a writer, or parsed back into a tree for callers that query it.
std::string report_text(const report& r);
void write_report(json_writer& w, const report& r);
json report_to_json(const report& r);
std::string report_table(const report& r);

// The facade entry points (CLI and wasm share them, so their JSON is byte-identical).
std::string report_json_text(const std::string& scenario_text);
std::string presets_json_text();

}  // namespace tslab
