// Strict JSON field reading: types, ranges, NaN/inf, unknown keys.
#include "tslab/json_fields.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"

namespace tslab {

const char* json_type_name(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    return "an object";
}

field_reader::field_reader(const json& obj, std::string path) : obj_(obj), path_(std::move(path)) {
    if (!obj_.is_object()) throw input_error(path_, msg("input.expected_object", {{"got", json_type_name(obj_)}}));
}

bool field_reader::has(const char* key) const { return obj_.contains(key); }

std::string field_reader::path_of(const char* key) const { return join_path(path_, key); }

const json* field_reader::lookup(const char* key) {
    known_.push_back(key);
    auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
}

std::int64_t field_reader::integer(const char* key, std::int64_t def, std::int64_t lo, std::int64_t hi) {
    const json* v = lookup(key);
    if (!v) return def;
    if (!v->is_number()) throw input_error(path_of(key), msg("input.expected_integer", {{"got", json_type_name(*v)}}));
    const double d = v->get<double>();
    if (!std::isfinite(d)) throw input_error(path_of(key), msg("input.not_finite"));
    if (d != std::floor(d)) throw input_error(path_of(key), msg("input.expected_integer", {{"got", fmt::format("{}", d)}}));
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
        throw input_error(path_of(key),
                          msg("input.out_of_range", {{"value", fmt::format("{}", d)}, {"lo", fmt::format("{}", lo)}, {"hi", fmt::format("{}", hi)}}));
    return static_cast<std::int64_t>(d);
}

double field_reader::number(const char* key, double def, double lo, double hi) {
    const json* v = lookup(key);
    if (!v) return def;
    if (!v->is_number()) throw input_error(path_of(key), msg("input.expected_number", {{"got", json_type_name(*v)}}));
    const double d = v->get<double>();
    if (!std::isfinite(d)) throw input_error(path_of(key), msg("input.not_finite"));
    if (d < lo || d > hi)
        throw input_error(
            path_of(key),
            msg("input.out_of_range", {{"value", fmt::format("{:g}", d)}, {"lo", fmt::format("{:g}", lo)}, {"hi", fmt::format("{:g}", hi)}}));
    return d;
}

bool field_reader::boolean(const char* key, bool def) {
    const json* v = lookup(key);
    if (!v) return def;
    if (!v->is_boolean()) throw input_error(path_of(key), msg("input.expected_boolean", {{"got", json_type_name(*v)}}));
    return v->get<bool>();
}

std::string field_reader::text(const char* key, const std::string& def) {
    const json* v = lookup(key);
    if (!v) return def;
    if (!v->is_string()) throw input_error(path_of(key), msg("input.expected_string", {{"got", json_type_name(*v)}}));
    return v->get<std::string>();
}

namespace {
// `value` is not among `allowed`: the message names the list and, where one is close, a near name.
[[noreturn]] void unknown_value(const std::string& path, const std::string& value, const std::vector<std::string>& allowed) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
    const std::string near = closest_name(value, allowed);
    message_args args{{"value", utf8_excerpt(value, 64)}, {"allowed", list}};
    if (!near.empty()) args.emplace_back("near", near);
    throw input_error(path, msg(near.empty() ? "input.unknown_value" : "input.unknown_value_near", std::move(args)));
}
}  // namespace

std::string field_reader::choice(const char* key, const std::string& def, const std::vector<std::string>& allowed) {
    std::string s = text(key, def);
    for (const auto& a : allowed)
        if (a == s) return s;
    unknown_value(path_of(key), s, allowed);
}

std::vector<std::size_t> field_reader::choice_set(const char* key, const std::vector<std::string>& allowed) {
    std::vector<std::size_t> out;
    const json* v = lookup(key);
    if (!v) return out;
    if (!v->is_array()) throw input_error(path_of(key), msg("input.expected_array", {{"got", json_type_name(*v)}}));
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json& e = (*v)[i];
        const std::string at = fmt::format("{}[{}]", path_of(key), i);
        if (!e.is_string()) throw input_error(at, msg("input.expected_string", {{"got", json_type_name(e)}}));
        const auto it = std::find(allowed.begin(), allowed.end(), e.get<std::string>());
        if (it == allowed.end()) unknown_value(at, e.get<std::string>(), allowed);
        const auto index = static_cast<std::size_t>(it - allowed.begin());
        if (std::find(out.begin(), out.end(), index) != out.end()) throw input_error(at, msg("json.duplicate_key"));
        out.push_back(index);
    }
    return out;
}

const json* field_reader::object(const char* key) {
    const json* v = lookup(key);
    if (v && !v->is_object()) throw input_error(path_of(key), msg("input.expected_object", {{"got", json_type_name(*v)}}));
    return v;
}

const json* field_reader::raw(const char* key) { return lookup(key); }

void field_reader::finish() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
        bool seen = false;
        for (const char* k : known_) seen = seen || it.key() == k;
        if (seen) continue;
        const std::string near = closest_name(it.key(), std::vector<std::string>(known_.begin(), known_.end()));
        throw input_error(join_path(path_, it.key()), near.empty() ? msg("input.unknown_field") : msg("input.unknown_field_near", {{"near", near}}));
    }
}

json merge_objects(json base, const json& fields) {
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        if (it.key() == "preset") continue;
        auto b = base.find(it.key());
        if (b != base.end() && b->is_object() && it.value().is_object())
            *b = merge_objects(*b, it.value());
        else
            base[it.key()] = it.value();
    }
    return base;
}

}  // namespace tslab
