// Calls into the core from JS without ever throwing across the boundary: every entry point returns
// an outcome ({ok, value, error}); the JS side turns a failed one into an Error with its message.
// (A JS throw from inside a C++ catch unwinds through wasm frames: the stack pointer is never
// restored and the argument strings leak, until the module breaks; issue 15.)
#pragma once

#include <exception>
#include <string>

#include "tslab/errors.hpp"

namespace tslab::wasm {

struct outcome {
    bool ok = false;
    std::string value;  // the JSON text when ok
    std::string error;  // "path: reason" when not ok
    std::string error_msg;  // the reason as {"id", "args"} JSON (messages.hpp) for an input error, else ""
    std::string error_path;  // the input error's JSON path ("" for any other error)
    std::string error_reason;  // its reason alone (the whole text for any other error)
};

template <class Fn>
outcome guarded(Fn&& fn) noexcept {
    try {
        return outcome{true, fn(), {}, {}, {}, {}};
    } catch (const input_error& e) {
        return outcome{false, {}, e.what(), message_json(e.msg()).dump(), e.path(), e.reason()};
    } catch (const std::exception& e) {
        return outcome{false, {}, e.what(), {}, {}, e.what()};
    } catch (...) {
        return outcome{false, {}, "internal error", {}, {}, "internal error"};
    }
}

}  // namespace tslab::wasm
