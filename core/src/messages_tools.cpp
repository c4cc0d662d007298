// English templates of the tools' errors and words: calibration profiles, collective queries,
// pipeline schedules, RL and the planner.
#include "messages_tables.hpp"

namespace tslab::message_tables {

namespace {
constexpr message_template table[] = {
    {"tools.none", "none"},
};
}  // namespace

std::span<const message_template> tools() { return table; }

}  // namespace tslab::message_tables
