#include "harness/core/raw_lines.h"

#include "harness/core/raw_text.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuconform {

namespace {

// Closes the descriptor when the last reader holding it goes.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<std::unique_ptr<LineSource>> FileLines(const std::string& path, std::size_t chunk_bytes) {
  auto file = std::make_shared<FileDescriptor>();
  file->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file->fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  ::posix_fadvise(file->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  auto error = std::make_shared<int>(0);
  auto read = [file, error](char* buffer, std::size_t size) -> long {
    for (;;) {
      const ssize_t got = ::read(file->fd, buffer, size);
      if (got >= 0) return static_cast<long>(got);
      if (errno == EINTR) continue;
      *error = errno;
      return -1;
    }
  };
  auto describe = [error] { return std::string("read failed: ") + std::strerror(*error); };
  return std::unique_ptr<LineSource>(std::make_unique<ChunkLines>(read, chunk_bytes, describe));
}

Result<std::unique_ptr<LineSource>> UsableLines(const RawOutput& out, const std::string& node, const std::string& file,
                                                const std::string& missing_tool) {
  if (out.ok()) return RawLines(out);
  return Error{UsableText(out, node, file, missing_tool).error()};
}

Result<std::unique_ptr<LineSource>> RawLines(const RawOutput& out) {
  if (!out.file.empty()) return FileLines(out.file);
  return std::unique_ptr<LineSource>(std::make_unique<TextLines>(out.text));
}

}  // namespace gpuconform
