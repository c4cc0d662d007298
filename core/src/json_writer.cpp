// The streaming JSON writer: separators, indentation and escaping as nlohmann's serializer (3.11)
// writes them with indent 2 and ensure_ascii off.
#include "tslab/json_writer.hpp"

#include <charconv>
#include <cmath>

namespace tslab {

void json_writer::separate() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (depth_ == 0) return;
    out_ += empty_ ? "\n" : ",\n";
    out_.append(static_cast<std::size_t>(2 * depth_), ' ');
    empty_ = false;
}

void json_writer::open(char bracket) {
    separate();
    out_ += bracket;
    ++depth_;
    empty_ = true;
}

// An empty container closes on its own line ("{}", "[]"), as dump() prints it.
void json_writer::close(char bracket) {
    --depth_;
    if (!empty_) {
        out_ += '\n';
        out_.append(static_cast<std::size_t>(2 * depth_), ' ');
    }
    out_ += bracket;
    empty_ = false;
}

json_writer& json_writer::key(std::string_view k) {
    value(k);
    out_ += ": ";
    after_key_ = true;
    return *this;
}

// Escapes as dump() with ensure_ascii off: quote, backslash and control characters only; other
// bytes (UTF-8 included) pass through. Inputs are parsed JSON or literals, so already valid UTF-8.
void json_writer::value(std::string_view s) {
    separate();
    out_ += '"';
    static const char hex[] = "0123456789abcdef";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"': out_ += "\\\""; break;
            case '\\': out_ += "\\\\"; break;
            case '\b': out_ += "\\b"; break;
            case '\f': out_ += "\\f"; break;
            case '\n': out_ += "\\n"; break;
            case '\r': out_ += "\\r"; break;
            case '\t': out_ += "\\t"; break;
            default:
                if (c < 0x20) {
                    out_ += "\\u00";
                    out_ += hex[c >> 4];
                    out_ += hex[c & 15];
                } else {
                    out_ += ch;
                }
        }
    }
    out_ += '"';
}

void json_writer::value(bool b) {
    separate();
    out_ += b ? "true" : "false";
}

void json_writer::null_value() {
    separate();
    out_ += "null";
}

// A finite double prints as nlohmann's public dump() of it: its Grisu2 digits in its layout
// ("1.0", "0.0001", "1e+20", "1.5e-07", "-0.0"). A shortest round-trip formatter (std::to_chars,
// fmt's Dragonbox) cannot stand in: Grisu2 is not always shortest (dump() prints 31.15808 as
// 31.158080000000002, about 1 random double in 800), and Emscripten 3.1.6's libc++ 13 has no
// floating-point std::to_chars at all.
void json_writer::value(double d) {
    if (!std::isfinite(d)) return null_value();
    separate();
    out_ += json(d).dump();
}

void json_writer::integer(std::int64_t v) {
    separate();
    char buf[24];
    out_.append(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
}

void json_writer::unsigned_integer(std::uint64_t v) {
    separate();
    char buf[24];
    out_.append(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
}

void json_writer::value(const json& j) {
    switch (j.type()) {
        case json::value_t::object:
            begin_object();
            for (const auto& el : j.items()) key(el.key()).value(el.value());
            return end_object();
        case json::value_t::array:
            begin_array();
            for (const auto& v : j) value(v);
            return end_array();
        case json::value_t::string: return value(j.get_ref<const std::string&>());
        case json::value_t::boolean: return value(j.get<bool>());
        case json::value_t::number_integer: return integer(j.get<std::int64_t>());
        case json::value_t::number_unsigned: return unsigned_integer(j.get<std::uint64_t>());
        case json::value_t::number_float: return value(j.get<double>());
        default: return null_value();  // null (binary and discarded never occur in our documents)
    }
}

}  // namespace tslab
