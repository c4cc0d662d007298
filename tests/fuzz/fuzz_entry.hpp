// Shared body of the libFuzzer targets: bytes in as JSON text, one core entry point called; a typed
// input_error is the expected answer to bad input, anything else (another exception, a crash, a
// sanitizer report) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tslab/errors.hpp"

namespace tslab::fuzz {

template <class Fn>
int run_entry(const std::uint8_t* data, std::size_t size, Fn&& entry) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        entry(text);
    } catch (const input_error&) {
        // bad input, named: what every entry point must answer
    }
    return 0;
}

}  // namespace tslab::fuzz
