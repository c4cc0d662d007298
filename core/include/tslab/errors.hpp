// Typed user-facing errors: every message names the JSON path and the reason.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "tslab/messages.hpp"

namespace tslab {

// A problem with user input. what() is "path: reason", e.g.
// "parallel.tp: 12 does not divide model.heads = 32"; an empty path is "$", the whole document.
// The reason is a registered message (messages.hpp): reason() is its English text, msg() the id and
// parameters the lab words in the reader's language.
class input_error : public std::runtime_error {
public:
    input_error(std::string path, message reason);
    // Free text without a message id: English in every language. Being replaced by messages.
    [[deprecated("word the reason as a registered message: msg(id, args)")]] input_error(std::string path, std::string reason);
    const std::string& path() const noexcept { return path_; }
    const std::string& reason() const noexcept { return reason_; }
    const message& msg() const noexcept { return msg_; }

private:
    input_error(std::string path, std::string reason, message m);
    std::string path_;
    std::string reason_;
    message msg_;
};

// {"path": ..., "message": "path: reason", "msg": {id, args}}: an input error for the lab.
json input_error_json(const input_error& e);

// Closest candidate by edit distance, or "" when nothing is close enough.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace tslab
