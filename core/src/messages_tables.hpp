// The registry's parts, one table per area, merged by messages.cpp (each part's owner edits only its file).
#pragma once

#include <span>

#include "tslab/messages.hpp"

namespace tslab::message_tables {

std::span<const message_template> report();  // messages_report.cpp: step, mesh, context, planner, notes
std::span<const message_template> input();  // messages_input.cpp: JSON fields and scenario errors
std::span<const message_template> tools();  // messages_tools.cpp: calibration, collectives, schedules, RL

}  // namespace tslab::message_tables
