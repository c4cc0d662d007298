// Strict reader over one JSON object: typed, range-checked fields with defaults,
// and an error for every field nobody asked for (a silently ignored typo is a wrong answer).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/json.hpp"

namespace tslab {

class field_reader {
public:
    // Throws input_error when `obj` is not a JSON object.
    field_reader(const json& obj, std::string path);

    bool has(const char* key) const;
    std::string path_of(const char* key) const;

    std::int64_t integer(const char* key, std::int64_t def, std::int64_t lo, std::int64_t hi);
    double number(const char* key, double def, double lo, double hi);
    bool boolean(const char* key, bool def);
    std::string choice(const char* key, const std::string& def, const std::vector<std::string>& allowed);
    std::string text(const char* key, const std::string& def);
    // An array of distinct names from `allowed`, as their indices in the order given (empty when absent).
    std::vector<std::size_t> choice_set(const char* key, const std::vector<std::string>& allowed);
    // The raw value (an object expected), or nullptr when absent.
    const json* object(const char* key);
    // The raw value of any type, or nullptr when absent.
    const json* raw(const char* key);

    // Throws for the first key that no accessor asked for, with a suggestion.
    void finish() const;

private:
    const json& obj_;
    std::string path_;
    std::vector<const char*> known_;  // string literals: keys are named in code
    const json* lookup(const char* key);
};

// The JSON type of `v` as input errors name it ("a string", "an array", "null").
const char* json_type_name(const json& v);

// Overlay `fields` on the preset's object (shallow per key, deep for nested objects).
json merge_objects(json base, const json& fields);

}  // namespace tslab
