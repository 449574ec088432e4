#include "harness/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gpuconform {

namespace {

Error Failure(const std::string& step, const std::string& path) {
  return Error{"cannot write " + path + ": " + step + ": " + std::strerror(errno)};
}

}  // namespace

Result<bool> WriteFileAtomically(const std::string& path, const std::string& contents) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{"cannot write " + path + ": cannot create " + dir.string() + ": " + ec.message()};

  std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(temp.data());
  if (fd < 0) return Failure("mkstemp", path);
  std::size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Error e = Failure("write", path);
      close(fd);
      unlink(temp.c_str());
      return e;
    }
    done += static_cast<std::size_t>(n);
  }
  // Readable like any report; mkstemp creates 0600.
  fchmod(fd, 0644);
  if (fsync(fd) != 0) {
    Error e = Failure("fsync", path);
    close(fd);
    unlink(temp.c_str());
    return e;
  }
  close(fd);
  if (rename(temp.c_str(), path.c_str()) != 0) {
    Error e = Failure("rename", path);
    unlink(temp.c_str());
    return e;
  }
  const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    fsync(dir_fd);
    close(dir_fd);
  }
  return true;
}

}  // namespace gpuconform
