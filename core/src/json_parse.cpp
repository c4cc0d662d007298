// A SAX handler that builds ordered_json under limits, with linear key insertion and typed errors.
#include "tslab/json_parse.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

parse_limits& input_limits() {
    static parse_limits limits;
    return limits;
}

std::string join_path(const std::string& base, const std::string& key) {
    const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; });
    if (plain) return base.empty() ? key : base + "." + key;
    return (base.empty() ? std::string("$") : base) + "[" + json(utf8_excerpt(key, 64)).dump() + "]";
}

std::string utf8_prefix(const std::string& s, std::size_t max_bytes) {
    if (s.size() <= max_bytes) return s;
    std::size_t n = max_bytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // not inside a character
    return s.substr(0, n);
}

std::string utf8_excerpt(const std::string& s, std::size_t max_bytes) {
    return s.size() <= max_bytes ? s : utf8_prefix(s, max_bytes) + "\xE2\x80\xA6";
}

namespace {

using object_t = json::object_t;

struct frame {
    json* node;
    std::string path;
    std::size_t count = 0;  // elements or keys so far
    std::string key{};  // the key whose value comes next (objects)
};

class limited_builder {
public:
    limited_builder(std::string path, const parse_limits& lim, std::size_t size) : base_(std::move(path)), lim_(lim), size_(size) {}
    json take() { return std::move(root_); }

    bool null() { return put(json(nullptr)); }
    bool boolean(bool v) { return put(json(v)); }
    bool number_integer(json::number_integer_t v) { return put(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
    bool number_float(json::number_float_t v, const std::string&) { return put(json(v)); }
    bool string(std::string& v) { return put(json(std::move(v))); }
    bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return check_duplicates(), stack_.pop_back(), true; }
    bool end_array() { return stack_.pop_back(), true; }

    bool key(std::string& k) {
        frame& f = stack_.back();
        if (++f.count > lim_.max_keys) throw input_error(display(f.path), msg("json.too_many_keys", {{"limit", fmt::format("{}", lim_.max_keys)}}));
        f.key = std::move(k);
        return true;
    }

    bool parse_error(std::size_t byte, const std::string& token, const nlohmann::detail::exception& e) {
        if (e.id == 406)  // out_of_range.406: a number beyond the double range
            throw input_error(display(next_path()), msg("json.number_out_of_range", {{"number", utf8_excerpt(token, 40)}}));
        std::string what = e.what();
        const auto close = what.find("] ");  // drop nlohmann's "[json.exception.parse_error.101] " tag
        if (close != std::string::npos && what.front() == '[') what.erase(0, close + 2);
        const bool truncated = byte >= size_;  // the text ended inside a value
        throw input_error(display(base_),
                          msg(truncated ? "json.truncated" : "json.malformed", {{"byte", fmt::format("{}", byte)}, {"detail", what}}));
    }

private:
    std::string base_;
    const parse_limits& lim_;
    std::size_t size_;
    json root_;
    std::vector<frame> stack_;

    static std::string display(const std::string& p) { return p.empty() ? "$" : p; }

    std::string next_path() const {
        if (stack_.empty()) return base_;
        const frame& f = stack_.back();
        if (f.node->is_array()) return fmt::format("{}[{}]", display(f.path), f.count);
        return join_path(f.path, f.key);
    }

    json* put(json&& v) {
        if (stack_.empty()) return &(root_ = std::move(v));
        frame& f = stack_.back();
        if (f.node->is_array()) {
            auto& a = f.node->get_ref<json::array_t&>();
            ++f.count;
            return &a.emplace_back(std::move(v));
        }
        // ordered_map::emplace searches every key (quadratic); duplicates are checked at the close.
        auto& o = f.node->get_ref<object_t&>();
        return &o.object_t::Container::emplace_back(std::move(f.key), std::move(v)).second;
    }

    bool open(json&& empty) {
        if (static_cast<int>(stack_.size()) >= lim_.max_depth)
            throw input_error(display(next_path()), msg("json.too_deep", {{"limit", fmt::format("{}", lim_.max_depth)}}));
        std::string path = next_path();
        json* node = put(std::move(empty));
        stack_.push_back(frame{node, std::move(path)});
        return true;
    }

    void check_duplicates() const {
        const frame& f = stack_.back();
        const auto& o = f.node->get_ref<const object_t&>();
        std::vector<std::string_view> keys;
        keys.reserve(o.size());
        for (const auto& kv : o) keys.emplace_back(kv.first);
        std::sort(keys.begin(), keys.end());
        const auto dup = std::adjacent_find(keys.begin(), keys.end());
        if (dup != keys.end()) throw input_error(join_path(f.path, std::string(*dup)), msg("json.duplicate_key"));
    }
};

}  // namespace

json parse_json(std::string_view text, const std::string& path) {
    const parse_limits& lim = input_limits();
    if (text.size() > lim.max_bytes)
        throw input_error(path.empty() ? "$" : path,
                          msg("json.too_large", {{"bytes", fmt::format("{}", text.size())}, {"limit", fmt::format("{}", lim.max_bytes)}}));
    limited_builder b(path, lim, text.size());
    json::sax_parse(text.begin(), text.end(), &b, nlohmann::detail::input_format_t::json, true, false);
    return b.take();
}

}  // namespace tslab
