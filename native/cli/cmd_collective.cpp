// `tslab collective` and `tslab mesh`: one collective timed, and the device mesh of a plan.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "tslab/collectives.hpp"
#include "tslab/mesh.hpp"

namespace tslab::cli {
namespace {

command_action define_collective(CLI::App& sub) {
    auto o = std::make_shared<file_and_format>();
    add_input(sub, o->path, "SPEC.json", "the collective spec");
    add_format(sub, o->format, {"json", "table"});
    return [o] {
        const std::string text = read_input(o->path);
        if (o->format == "table")
            std::cout << collective_table_text(text);
        else
            std::cout << collective_json_text(text) << "\n";
    };
}

command_action define_mesh(CLI::App& sub) {
    auto o = std::make_shared<file_and_format>();
    add_input(sub, o->path, "MESH.json", "the mesh spec");
    add_format(sub, o->format, {"json"});
    return [o] { std::cout << mesh_json_text(read_input(o->path)) << "\n"; };
}

const bool collective_registered =
    register_command({"collective", "time one collective with the alpha-beta model (json|table)", define_collective}) &&
    register_command({"mesh", "rank map, process groups and links of a plan (json)", define_mesh});

}  // namespace
}  // namespace tslab::cli
