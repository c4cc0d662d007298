// `tslab messages`: every message id the core can emit, with its English template and parameters,
// for translators and for the lab's catalog completeness test.
#include <iostream>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "tslab/messages.hpp"

namespace tslab::cli {
namespace {

command_action define_messages(CLI::App&) {
    return [] { std::cout << message_catalog_json_text() << "\n"; };
}

const bool messages_registered =
    register_command({"messages", "print every core message id with its English template (tslab/messages@1)", define_messages});

}  // namespace
}  // namespace tslab::cli
