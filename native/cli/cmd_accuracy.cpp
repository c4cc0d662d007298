// `tslab accuracy [VALIDATION.json]`: every published run of a validation set (by default the
// embedded tests/validation/training_set.json) against the step model's prediction.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "tslab/accuracy_class.hpp"
#include "tslab/errors.hpp"
#include "tslab/validation_cv.hpp"
#include "tslab/validation_set.hpp"

namespace tslab::cli {
namespace {

struct accuracy_args : file_and_format {
    std::string scenario;
    bool published = false, refit = false;
};

command_action define_accuracy(CLI::App& sub) {
    auto a = std::make_shared<accuracy_args>();
    sub.add_option("VALIDATION.json", a->path,
                   std::string("a tslab/validation@1 file, or - for standard input (default: the embedded ") + embedded_validation_path + ")")
        ->type_name("");
    sub.add_option("--scenario", a->scenario,
                   "a tslab/scenario@1 file: print the error on the published runs closest to its class (dense/MoE, GPU generation)")
        ->type_name("FILE");
    sub.add_flag("--published", a->published,
                 std::string("the embedded published runs the model is validated on, not fitted to (") + embedded_published_path + ")");
    sub.add_flag("--refit", a->refit,
                 "re-run the documented fit on the training set (or VALIDATION.json): all rows, then each family left out (JSON, ~5 s per fit)");
    add_format(sub, a->format, {"json", "table"});
    return [a] {
        if (!a->scenario.empty()) {
            std::cout << accuracy_class_json_text(read_input(a->scenario)) << "\n";
            return;
        }
        if (a->published && !a->path.empty()) throw input_error("--published", msg("cli.published_with_file"));
        const std::string text = a->path.empty() ? (a->published ? embedded_published_runs() : embedded_validation_set()) : read_input(a->path);
        const std::string source =
            a->path.empty() ? (a->published ? embedded_published_path : embedded_validation_path) : (a->path == "-" ? "(stdin)" : a->path);
        if (a->refit) {
            std::cout << refit_json_text(text, source) << "\n";
            return;
        }
        const accuracy_report r = predict_validation_text(text, source);
        if (a->format == "table")
            std::cout << accuracy_markdown(r);
        else
            std::cout << accuracy_json_text(r) << "\n";
    };
}

const bool accuracy_registered =
    register_command({"accuracy", "published training runs vs the step model: signed error, mean and max (json|table)", define_accuracy});

}  // namespace
}  // namespace tslab::cli
