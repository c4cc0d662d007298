// Internal helpers shared by the calibration profile's parsing files (required, non-negative fields).
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "tslab/calibration.hpp"
#include "tslab/errors.hpp"

namespace tslab::detail {

constexpr double max_bytes = 1e15;  // a petabyte: any larger message or memory is a corrupt file
constexpr double max_time = 1e6;  // seconds
constexpr double max_rate = 1e20;  // bytes or FLOPs per second

inline std::string num(double v) { return fmt::format("{:g}", v); }

inline std::string at(const std::string& path, std::size_t i) { return fmt::format("{}[{}]", path, i); }

inline void require(const field_reader& r, const char* key) {
    if (!r.has(key)) throw input_error(r.path_of(key), msg("calibration.missing_field"));
}

// A required non-negative number; a negative value gets its own message.
inline double need(field_reader& r, const char* key, double hi) {
    require(r, key);
    const json* v = r.raw(key);
    if (v->is_number() && v->get<double>() < 0) throw input_error(r.path_of(key), msg("calibration.negative", {{"value", num(v->get<double>())}}));
    return r.number(key, 0, 0, hi);
}

inline std::int64_t need_int(field_reader& r, const char* key, std::int64_t lo, std::int64_t hi) {
    require(r, key);
    const json* v = r.raw(key);
    if (v->is_number() && v->get<double>() < 0) throw input_error(r.path_of(key), msg("calibration.negative", {{"value", num(v->get<double>())}}));
    return r.integer(key, 0, lo, hi);
}

inline const json& need_array(field_reader& r, const char* key) {
    require(r, key);
    const json* v = r.raw(key);
    if (!v->is_array()) throw input_error(r.path_of(key), msg("calibration.expected_array"));
    return *v;
}

inline std::vector<double> numbers(const json& arr, const std::string& path) {
    std::vector<double> out;
    for (std::size_t i = 0; i < arr.size(); ++i) {
        if (!arr[i].is_number()) throw input_error(at(path, i), msg("calibration.expected_number"));
        out.push_back(arr[i].get<double>());
    }
    return out;
}

gemm_section parse_gemm(const json* obj, const std::string& path);
memory_figures parse_memory(const json* obj, const std::string& path);
void parse_identity(field_reader& r, calibration_profile& p);
fit_summary parse_fit(const json* obj, const std::string& path, std::size_t samples);
provenance_info parse_provenance(const json& obj, const std::string& path);
json provenance_json(const provenance_info& p);

}  // namespace tslab::detail
