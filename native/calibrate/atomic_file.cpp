// Atomic profile writes (temp + fsync + rename) and the --out check done before measuring.
#include "atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace tslab::calibrate {

namespace {

std::string os_error(const std::string& path, const char* what) { return fmt::format("{}: {}: {}", path, what, std::strerror(errno)); }

std::string directory_of(const std::string& path) {
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    return dir.empty() ? "." : dir.string();
}

std::string temp_name(const std::string& path) {
    static std::atomic<int> serial{0};
    return fmt::format("{}.tmp.{}.{}", path, ::getpid(), serial++);
}

// Writes all of `text` to `fd` and fsyncs it; "" or the OS reason.
std::string write_all(int fd, const std::string& tmp, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return os_error(tmp, "cannot write the profile");
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) return os_error(tmp, "cannot fsync the profile");
    return {};
}

void sync_directory(const std::string& dir) {
    const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (d >= 0) ::fsync(d), ::close(d);  // best effort: some file systems refuse fsync on directories
}

}  // namespace

std::string write_file_atomically(const std::string& path, const std::string& text) {
    const std::string tmp = temp_name(path);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return os_error(tmp, "cannot create the temporary profile");
    std::string err = write_all(fd, tmp, text);
    if (::close(fd) != 0 && err.empty()) err = os_error(tmp, "cannot close the profile");
    if (err.empty() && ::rename(tmp.c_str(), path.c_str()) != 0) err = os_error(path, "cannot rename the profile into place");
    if (!err.empty()) {
        ::unlink(tmp.c_str());
        return err;
    }
    sync_directory(directory_of(path));
    return {};
}

std::string check_writable(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return fmt::format("{}: is a directory", path);
        if (::access(path.c_str(), W_OK) != 0) return os_error(path, "cannot overwrite");
    }
    const std::string probe = temp_name(path);
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return os_error(path, "cannot create a file there");
    const bool ok = ::write(fd, "{}\n", 3) == 3 && ::fsync(fd) == 0;
    const std::string err = ok ? "" : os_error(path, "cannot write there");
    ::close(fd);
    ::unlink(probe.c_str());
    return err;
}

}  // namespace tslab::calibrate
