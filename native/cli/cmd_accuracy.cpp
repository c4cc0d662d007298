// `tslab accuracy [VALIDATION.json]`: every published run of a validation set (by default the
// embedded tests/validation/training_set.json) against the step model's prediction.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "tslab/validation_set.hpp"

namespace tslab::cli {
namespace {

command_action define_accuracy(CLI::App& sub) {
    auto a = std::make_shared<file_and_format>();
    sub.add_option("VALIDATION.json", a->path,
                   std::string("a tslab/validation@1 file, or - for standard input (default: the embedded ") +
                       embedded_validation_path + ")")
        ->type_name("");
    add_format(sub, a->format, {"json", "table"});
    return [a] {
        const accuracy_report r = a->path.empty()
                                      ? predict_validation_text(embedded_validation_set(), embedded_validation_path)
                                      : predict_validation_text(read_input(a->path), a->path == "-" ? "(stdin)" : a->path);
        if (a->format == "table") std::cout << accuracy_markdown(r);
        else std::cout << accuracy_json_text(r) << "\n";
    };
}

const bool registered = register_command(
    {"accuracy", "published training runs vs the step model: signed error, mean and max (json|table)", define_accuracy});

}  // namespace
}  // namespace tslab::cli
