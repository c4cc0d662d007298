// `tslab validate PROFILE.json [--scenario S]`: predicted versus measured for every probe of a profile.
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include "calibration_path.hpp"
#include "command.hpp"
#include "tslab/calibration_check.hpp"

namespace tslab::cli {
namespace {

struct validate_args : file_and_format {
    std::string scenario;
};

command_action define_validate(CLI::App& sub) {
    auto a = std::make_shared<validate_args>();
    add_input(sub, a->path, "PROFILE.json", "the tslab/calibration@1 profile");
    sub.add_option("--scenario", a->scenario, "predict with this scenario's cluster instead of the profile's fits")->type_name("SCENARIO.json");
    add_format(sub, a->format, {"json", "table"});
    return [a, &sub] {
        const calibration_profile profile = read_profile(a->path);
        std::optional<scenario> s;
        if (sub.count("--scenario")) s = parse_scenario_text(load_calibration_path(read_input(a->scenario), a->scenario));
        const check_report c = check_profile(profile, s ? &s->cluster : nullptr, s ? s->parallel.world() : 0);
        for (const auto& w : c.warnings) std::cerr << "warning: " << w << "\n";
        if (a->format == "table")
            std::cout << check_table(c);
        else
            std::cout << check_to_json(c).dump(2) << "\n";
    };
}

const bool validate_registered =
    register_command({"validate", "predicted vs measured for every probe of a calibration profile (json|table)", define_validate});

}  // namespace
}  // namespace tslab::cli
