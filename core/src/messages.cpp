// The message registry: lookup by id, the English rendering and the JSON form of a message.
#include "tslab/messages.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "messages_tables.hpp"
#include "tslab/json_writer.hpp"

namespace tslab {

namespace {

struct registry {
    std::vector<message_template> sorted;
    std::unordered_map<std::string_view, const message_template*> by_id;
};

const registry& the_registry() {
    static const registry r = [] {
        registry out;
        for (auto part : {message_tables::report(), message_tables::input(), message_tables::tools()})
            out.sorted.insert(out.sorted.end(), part.begin(), part.end());
        std::sort(out.sorted.begin(), out.sorted.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        for (const auto& t : out.sorted)
            if (!out.by_id.emplace(t.id, &t).second) throw std::logic_error("message id registered twice: " + std::string(t.id));
        return out;
    }();
    return r;
}

const message_template& template_of(std::string_view id) {
    const auto& r = the_registry();
    const auto it = r.by_id.find(id);
    if (it == r.by_id.end()) throw std::logic_error("unregistered message id: " + std::string(id));
    return *it->second;
}

// The "{name}" parameters of a template, in order.
std::vector<std::string> params_of(std::string_view tmpl) {
    std::vector<std::string> out;
    for (std::size_t at = tmpl.find('{'); at != std::string_view::npos; at = tmpl.find('{', at + 1)) {
        const std::size_t close = tmpl.find('}', at);
        if (close == std::string_view::npos) break;
        out.emplace_back(tmpl.substr(at + 1, close - at - 1));
    }
    return out;
}

// Each "{name}" of the template has a parameter in `args`.
void check_args(const message_template& t, const message_args& args) {
    for (const auto& name : params_of(t.en))
        if (std::none_of(args.begin(), args.end(), [&](const auto& a) { return a.first == name; }))
            throw std::logic_error("message " + std::string(t.id) + " lacks parameter " + name);
}

}  // namespace

std::span<const message_template> message_catalog() { return the_registry().sorted; }

message make_message(std::string_view id, message_args args) {
    // A parameter the English template does not show is allowed: a translation may use it (e.g. a
    // JSON type keyword beside the English "a boolean").
    check_args(template_of(id), args);
    return message{std::string(id), std::move(args)};
}

std::string english(const message& m) {
    const std::string_view tmpl = template_of(m.id).en;
    std::string out;
    out.reserve(tmpl.size() + 16 * m.args.size());
    for (std::size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '{') {
            const std::size_t close = tmpl.find('}', i);
            if (close != std::string_view::npos) {
                const std::string_view name = tmpl.substr(i + 1, close - i - 1);
                const auto arg = std::find_if(m.args.begin(), m.args.end(), [&](const auto& a) { return a.first == name; });
                if (arg == m.args.end()) throw std::logic_error("message " + m.id + " lacks parameter " + std::string(name));
                out += arg->second;
                i = close;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

std::string english(const std::vector<message>& clauses) {
    std::string out;
    for (const auto& c : clauses) out += (out.empty() ? "" : "; ") + english(c);
    return out;
}

std::string message_catalog_json_text() {
    json list = json::array();
    for (const auto& t : message_catalog()) list.push_back({{"id", t.id}, {"en", t.en}, {"params", params_of(t.en)}});
    return json{{"schema", "tslab/messages@1"}, {"messages", std::move(list)}}.dump(2);
}

json message_json(const message& m) {
    json args = json::object();
    for (const auto& [k, v] : m.args) args[k] = v;
    return json{{"id", m.id}, {"args", std::move(args)}};
}

json messages_json(const std::vector<message>& ms) {
    json out = json::array();
    for (const auto& m : ms) out.push_back(message_json(m));
    return out;
}

std::string num_text(std::int64_t v) { return fmt::format("{}", v); }
std::string num_text(double v) { return fmt::format("{:g}", v); }

void write_message(json_writer& w, const message& m) {
    w.begin_object();
    w.field("id", m.id);
    w.key("args");
    w.begin_object();
    for (const auto& [k, v] : m.args) w.field(k, v);
    w.end_object();
    w.end_object();
}

void write_messages(json_writer& w, const std::vector<message>& ms) {
    w.begin_array();
    for (const auto& m : ms) write_message(w, m);
    w.end_array();
}

}  // namespace tslab
