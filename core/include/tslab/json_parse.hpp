// Parsing untrusted JSON text with limits: size, nesting depth and keys per object are checked
// while parsing (SAX), before a tree exists; keys stay linear to insert; every error names a path.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tslab/json.hpp"

namespace tslab {

struct parse_limits {
    std::size_t max_bytes = std::size_t{4} << 20;  // 4 MiB of text; the CLI's --max-input-bytes
    int max_depth = 64;  // nested objects/arrays
    std::size_t max_keys = 1024;  // fields in one object
};

// The limits every parse_json call uses (process-wide; the CLI sets max_bytes from its flag).
parse_limits& input_limits();

// `text` as a JSON tree, or input_error: "PATH: ..." for malformed JSON, numbers out of the
// double range, duplicate fields, and each limit exceeded (the error names the limit).
// `path` prefixes every error path ("" for a document of its own, shown as "$").
json parse_json(std::string_view text, const std::string& path = "");

// "base.key", or base["key"] when the key is not a plain identifier ("" base: the key alone).
std::string join_path(const std::string& base, const std::string& key);

// At most `max_bytes` of `s`, cut at a UTF-8 character boundary.
std::string utf8_prefix(const std::string& s, std::size_t max_bytes);
// The same with "…" appended when cut (for quoting user text in messages).
std::string utf8_excerpt(const std::string& s, std::size_t max_bytes);

}  // namespace tslab
