// Calls into the core from JS: any C++ exception is rethrown as a JS Error with its message
// (Emscripten 3.1.6 otherwise hands JS a bare pointer number).
#pragma once

#include <emscripten/val.h>

#include <string>

namespace tslab::wasm {

template <class Fn>
std::string guarded(Fn&& fn) {
    try {
        return fn();
    } catch (const std::exception& e) {
        emscripten::val::global("Error").new_(std::string(e.what())).throw_();
    } catch (...) {
        emscripten::val::global("Error").new_(std::string("internal error")).throw_();
    }
    return {};
}

}  // namespace tslab::wasm
