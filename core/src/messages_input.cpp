// English templates of input errors: JSON fields, scenario rules and presets (ARCHITECTURE.md, "Errors").
#include "messages_tables.hpp"

namespace tslab::message_tables {

namespace {
constexpr message_template table[] = {
    {"text", "{reason}"},
};
}  // namespace

std::span<const message_template> input() { return table; }

}  // namespace tslab::message_tables
