#include "harness/util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gpuconform {

namespace {

// Large enough that a 180 MB report is a few hundred writes, small enough not to matter.
constexpr std::size_t kBufferBytes = 1 << 20;

std::string FailureText(const std::string& step, const std::string& path) {
  return "cannot write " + path + ": " + step + ": " + std::strerror(errno);
}

std::filesystem::path ParentOf(const std::string& path) {
  const std::filesystem::path target(path);
  return target.has_parent_path() ? target.parent_path() : ".";
}

}  // namespace

Result<std::unique_ptr<AtomicFileWriter>> AtomicFileWriter::Open(const std::string& path) {
  const std::filesystem::path dir = ParentOf(path);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{"cannot write " + path + ": cannot create " + dir.string() + ": " + ec.message()};
  std::string temp = (dir / ("." + std::filesystem::path(path).filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(temp.data());
  if (fd < 0) return Error{FailureText("mkstemp", path)};
  return std::unique_ptr<AtomicFileWriter>(new AtomicFileWriter(path, std::move(temp), fd));
}

AtomicFileWriter::AtomicFileWriter(std::string path, std::string temp, int fd)
    : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {
  buffer_.reserve(kBufferBytes);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) close(fd_);
  if (!committed_) unlink(temp_.c_str());
}

void AtomicFileWriter::Append(std::string_view text) {
  if (!error_.empty()) return;
  if (buffer_.size() + text.size() > kBufferBytes) Flush();
  if (text.size() >= kBufferBytes) {
    buffer_.assign(text);  // one large piece goes out on its own
    Flush();
    return;
  }
  buffer_.append(text);
}

void AtomicFileWriter::Flush() {
  std::size_t done = 0;
  while (error_.empty() && done < buffer_.size()) {
    const ssize_t n = write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error_ = FailureText("write", path_);
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

Result<bool> AtomicFileWriter::Commit() {
  if (committed_) return Error{"cannot write " + path_ + ": committed twice"};
  Flush();
  if (!error_.empty()) return Error{error_};
  // Readable like any report; mkstemp creates 0600.
  fchmod(fd_, 0644);
  if (fsync(fd_) != 0) return Error{FailureText("fsync", path_)};
  close(fd_);
  fd_ = -1;
  if (rename(temp_.c_str(), path_.c_str()) != 0) return Error{FailureText("rename", path_)};
  committed_ = true;
  const int dir_fd = open(ParentOf(path_).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    fsync(dir_fd);
    close(dir_fd);
  }
  return true;
}

Result<bool> WriteFileAtomically(const std::string& path, const std::string& contents) {
  auto writer = AtomicFileWriter::Open(path);
  if (!writer.ok()) return Error{writer.error()};
  (*writer)->Append(contents);
  return (*writer)->Commit();
}

Result<bool> CopyFileAtomically(const std::string& from, const std::string& path) {
  const int in = open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return Error{"cannot read " + from + ": " + std::strerror(errno)};
  auto writer = AtomicFileWriter::Open(path);
  if (!writer.ok()) {
    close(in);
    return Error{writer.error()};
  }
  std::string chunk(kBufferBytes, '\0');
  for (;;) {
    const ssize_t n = read(in, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = "cannot read " + from + ": " + std::strerror(errno);
      close(in);
      return Error{why};  // the writer, dropped uncommitted, removes its temporary file
    }
    if (n == 0) break;
    (*writer)->Append(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
  }
  close(in);
  return (*writer)->Commit();
}

}  // namespace gpuconform
