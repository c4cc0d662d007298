// Writing the profile so that readers see the old file or the whole new one, never a torn one.
#pragma once

#include <string>

namespace tslab::calibrate {

// Writes `text` to `path`: a temp file beside it (O_EXCL), write, fsync, rename, fsync of the
// directory. Returns "" on success, else "PATH: what failed: OS reason"; the temp file is removed
// on every failure.
std::string write_file_atomically(const std::string& path, const std::string& text);

// Checks before measuring that `path` can be written: creates, fsyncs and removes a probe file in
// its directory, and refuses a directory or an unwritable existing file. "" when it can.
std::string check_writable(const std::string& path);

}  // namespace tslab::calibrate
