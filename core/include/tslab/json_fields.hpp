// Strict reader over one JSON object: typed, range-checked fields with defaults,
// and an error for every field nobody asked for (a silently ignored typo is a wrong answer).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tslab {

using json = nlohmann::ordered_json;

class field_reader {
public:
    // Throws input_error when `obj` is not a JSON object.
    field_reader(const json& obj, std::string path);

    bool has(const std::string& key) const;
    std::string path_of(const std::string& key) const;

    std::int64_t integer(const std::string& key, std::int64_t def, std::int64_t lo, std::int64_t hi);
    double number(const std::string& key, double def, double lo, double hi);
    bool boolean(const std::string& key, bool def);
    std::string choice(const std::string& key, const std::string& def,
                       const std::vector<std::string>& allowed);
    std::string text(const std::string& key, const std::string& def);
    // The raw value (an object expected), or nullptr when absent.
    const json* object(const std::string& key);
    // The raw value of any type, or nullptr when absent.
    const json* raw(const std::string& key);

    // Throws for the first key that no accessor asked for, with a suggestion.
    void finish() const;

private:
    const json& obj_;
    std::string path_;
    std::vector<std::string> known_;
    const json* lookup(const std::string& key);
};

// Overlay `fields` on the preset's object (shallow per key, deep for nested objects).
json merge_objects(json base, const json& fields);

}  // namespace tslab
