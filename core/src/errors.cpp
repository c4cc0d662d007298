// Typed input errors and the "did you mean" helper used by every validator.
#include "tslab/errors.hpp"

#include <algorithm>

namespace tslab {

// `reason` is copied, not moved: the order in which the delegated call's arguments are built is
// unspecified, and a move first would leave english() an empty message.
input_error::input_error(std::string path, message reason) : input_error(std::move(path), english(reason), reason) {}

input_error::input_error(std::string path, std::string reason) : input_error(std::move(path), tslab::msg("text", {{"reason", reason}})) {}

input_error::input_error(std::string path, std::string reason, message m)
    : std::runtime_error((path.empty() ? std::string("$") : path) + ": " + reason),
      path_(path.empty() ? std::string("$") : std::move(path)),
      reason_(std::move(reason)),
      msg_(std::move(m)) {}

json input_error_json(const input_error& e) { return json{{"path", e.path()}, {"message", e.what()}, {"msg", message_json(e.msg())}}; }

namespace {
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            const std::size_t sub = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, sub});
            diag = up;
        }
    }
    return row[b.size()];
}
}  // namespace

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    if (word.size() > 256) return best;  // no name is that long: skip the quadratic distance
    std::size_t best_d = word.size() / 2 + 2;  // beyond this a suggestion misleads
    for (const auto& c : candidates) {
        const std::size_t d = edit_distance(word, c);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

}  // namespace tslab
