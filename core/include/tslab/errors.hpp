// Typed user-facing errors: every message names the JSON path and the reason.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace tslab {

// A problem with user input. what() is "path: reason", e.g.
// "parallel.tp: 12 does not divide model.heads = 32"; an empty path is "$", the whole document.
class input_error : public std::runtime_error {
public:
    input_error(std::string path, std::string reason);
    const std::string& path() const noexcept { return path_; }
    const std::string& reason() const noexcept { return reason_; }

private:
    std::string path_;
    std::string reason_;
};

// Closest candidate by edit distance, or "" when nothing is close enough.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace tslab
