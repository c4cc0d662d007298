// The project version and the git revision of the native programs, fixed when CMake configures.
#pragma once

#include <string>

namespace tslab::native {

const char* project_version();  // "0.1.0", CMake's PROJECT_VERSION
const char* git_revision();  // `git describe --always --dirty` at configure time, or "unknown"
// What --version prints: "tslab 0.1.0 (git a29f1ee-dirty)".
std::string version_line(const std::string& program);

}  // namespace tslab::native
