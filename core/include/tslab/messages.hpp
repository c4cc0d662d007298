// Core sentences as registered message ids with named parameters, so the lab can word them in the
// reader's language while the report and the CLI keep the English text (issue 14, point 7).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tslab/json.hpp"

namespace tslab {

class json_writer;

// One registered sentence: its id and its English template, where "{name}" marks a parameter.
struct message_template {
    std::string_view id;
    std::string_view en;
};

// A sentence the core said: a registered id and its parameters, already formatted as text
// ("12.3", "L5", "ring"), so every catalog renders the same numbers.
struct message {
    std::string id;
    std::vector<std::pair<std::string, std::string>> args;
};

using message_args = std::vector<std::pair<std::string, std::string>>;

// Every id the core can emit, sorted by id (`tslab messages`, the wasm `messages()`).
std::span<const message_template> message_catalog();

// The message `id` with `args`. An unregistered id or a parameter its template lacks is a
// programming error (std::logic_error), so a typo fails every test that reaches the sentence.
message make_message(std::string_view id, message_args args = {});

// A number as a message parameter: integers in full ("4096"), others in the shortest form ("{:g}").
std::string num_text(std::int64_t v);
std::string num_text(double v);

// Short form for call sites: throw input_error(path, msg("input.positive", {{"value", "0"}})).
inline message msg(std::string_view id, message_args args = {}) { return make_message(id, std::move(args)); }

// The English text: the template with every "{name}" replaced by its parameter.
std::string english(const message& m);
// The clauses of one sentence in English, joined by "; " (the step's bottleneck).
std::string english(const std::vector<message>& clauses);

// tslab/messages@1: {"schema", "messages": [{"id", "en", "params": [...]}]}, sorted by id.
std::string message_catalog_json_text();

// {"id": ..., "args": {name: text, ...}}
json message_json(const message& m);
json messages_json(const std::vector<message>& ms);
void write_message(json_writer& w, const message& m);
void write_messages(json_writer& w, const std::vector<message>& ms);

}  // namespace tslab
