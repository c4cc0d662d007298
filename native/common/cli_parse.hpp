// What tslab and tslab-calibrate share on top of CLI11: exit codes, value checks whose messages
// name the option and the value, and parse errors turned into input_error.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tslab/errors.hpp"

namespace tslab::native {

// Exit status of both programs. 70 is sysexits.h's EX_SOFTWARE.
inline constexpr int exit_ok = 0;
inline constexpr int exit_input = 2;  // bad input: a file, a flag or a value (tslab::input_error, CLI11)
inline constexpr int exit_stopped = 3;  // tslab-calibrate only: stopped early, partial profile written
inline constexpr int exit_internal = 70;  // anything else: a bug, or a failure of the machine or its libraries

// Accepts only the values in `allowed`: "expected json or table, got \"yaml\"".
CLI::Validator one_of(const std::vector<std::string>& allowed);

// A whole number in [lo, hi]: "expected a whole number, got \"many\"", "0 is out of range [1, 1000]".
CLI::Validator whole_number(std::int64_t lo = std::numeric_limits<std::int64_t>::min(), std::int64_t hi = std::numeric_limits<std::int64_t>::max());

// A failed parse as an input_error naming the option, e.g. path "--topk", reason "unknown option
// for plan; see tslab plan --help". `root` is the app that threw (after its parse() returned).
input_error parse_error(const CLI::App& root, const CLI::ParseError& e);

}  // namespace tslab::native
