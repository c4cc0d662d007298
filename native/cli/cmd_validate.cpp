// `tslab validate PROFILE.json [--scenario S]`: predicted versus measured for every probe of a profile.
#include <iostream>

#include "calibration_path.hpp"
#include "command.hpp"
#include "tslab/calibration_check.hpp"
#include "tslab/errors.hpp"

namespace tslab::cli {
namespace {

int run_validate(const args& a) {
    const std::string& path = need_file(a, "a calibration PROFILE.json path (or '-')");
    const calibration_profile profile = read_profile(path);
    std::optional<scenario> s;
    if (const std::string* sc = a.option("scenario")) s = parse_scenario_text(inline_calibration_path(read_input(*sc), *sc));
    for (const auto& [k, v] : a.options)
        if (k != "scenario") throw input_error("--" + k, "unknown option for validate; expected --scenario or --format");
    const check_report c = check_profile(profile, s ? &s->cluster : nullptr);
    if (a.format == "table") std::cout << check_table(c);
    else if (a.format == "json") std::cout << check_to_json(c).dump(2) << "\n";
    else throw input_error("--format", "expected json or table, got \"" + a.format + "\"");
    return 0;
}

const bool registered = register_command(
    {"validate", "validate PROFILE.json [--scenario S]        predicted vs measured per probe of a calibration profile",
     run_validate});

}  // namespace
}  // namespace tslab::cli
