// `tslab collective` and `tslab mesh`: one collective timed, and the device mesh of a plan.
#include <iostream>

#include "command.hpp"
#include "tslab/collectives.hpp"
#include "tslab/errors.hpp"
#include "tslab/mesh.hpp"

namespace tslab::cli {
namespace {

int run_collective(const args& a) {
    const std::string text = read_input(need_file(a, "a SPEC.json path (or '-')"));
    if (a.format == "table") std::cout << collective_table_text(text);
    else if (a.format == "json") std::cout << collective_json_text(text) << "\n";
    else throw input_error("--format", "expected json or table, got \"" + a.format + "\"");
    return 0;
}

int run_mesh(const args& a) {
    const std::string text = read_input(need_file(a, "a MESH.json path (or '-')"));
    if (a.format != "json") throw input_error("--format", "mesh prints json only, got \"" + a.format + "\"");
    std::cout << mesh_json_text(text) << "\n";
    return 0;
}

const bool registered =
    register_command({"collective", "collective SPEC.json [--format json|table]  time one collective (alpha-beta model)", run_collective}) &&
    register_command({"mesh", "mesh MESH.json                              rank map, process groups and links of a plan", run_mesh});

}  // namespace
}  // namespace tslab::cli
