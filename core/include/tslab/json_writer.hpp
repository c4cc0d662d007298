// Streams JSON text straight into a string, formatted exactly as nlohmann::json::dump(2), so the
// report is printed without first building a JSON tree (the tree cost twice the model itself).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tslab/json.hpp"

namespace tslab {

class json_writer {
public:
    explicit json_writer(std::string& out) : out_(out) {}

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }
    // The next value (or container) is the member `k` of the open object.
    json_writer& key(std::string_view k);

    void value(std::string_view s);
    void value(const char* s) { value(std::string_view(s)); }
    void value(const std::string& s) { value(std::string_view(s)); }
    void value(bool b);
    void value(double d);  // exactly as dump() prints it; NaN and ±inf print as null
    template <std::signed_integral T>
    void value(T v) {
        integer(static_cast<std::int64_t>(v));
    }
    template <std::unsigned_integral T>
    requires(!std::same_as<T, bool>) void value(T v) { unsigned_integer(static_cast<std::uint64_t>(v)); }
    void value(const json& j);  // any tree, element by element
    template <class T>
    void value(const std::vector<T>& v) {
        begin_array();
        for (const auto& x : v) value(x);
        end_array();
    }
    void null_value();

    template <class T>
    json_writer& field(std::string_view k, const T& v) {
        key(k);
        value(v);
        return *this;
    }

private:
    void open(char bracket);
    void close(char bracket);
    void separate();  // the comma, newline and indent before an element
    void integer(std::int64_t v);
    void unsigned_integer(std::uint64_t v);

    std::string& out_;
    int depth_ = 0;
    bool empty_ = true;  // the open container has no element yet
    bool after_key_ = false;  // a member's key was written; its value follows on the same line
};

// One JSON document written by `fill` into a fresh string (reserving `reserve` bytes).
template <class Fill>
std::string write_json(Fill&& fill, std::size_t reserve = 4096) {
    std::string out;
    out.reserve(reserve);
    json_writer w(out);
    fill(w);
    return out;
}

}  // namespace tslab
