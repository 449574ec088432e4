#include "probes/checkpoint_writer/checkpoint_writer.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>

#include "harness/core/os_error.h"
#include "harness/util/child_verbs.h"

namespace gpuconform::checkpoint {

namespace {

std::string Errno(const std::string& what, const std::string& path) {
  return OsErrorText(what + " " + path, errno);
}

Result<bool> WriteAll(int fd, const std::string& bytes, std::size_t from, std::size_t to, const std::string& path) {
  while (from < to) {
    const ssize_t wrote = ::write(fd, bytes.data() + from, to - from);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return Error{Errno("write", path)};
    }
    from += static_cast<std::size_t>(wrote);
  }
  return true;
}

Result<bool> FsyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return Error{Errno("open directory", dir)};
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Error{Errno("fsync directory", dir)};
  return true;
}

}  // namespace

const char* WriteModeName(WriteMode mode) { return mode == WriteMode::kAtomic ? "atomic" : "in-place"; }

const char* WritePhaseName(WritePhase phase) {
  switch (phase) {
    case WritePhase::kBeforeWrite: return "before-write";
    case WritePhase::kMidWrite: return "mid-write";
    case WritePhase::kAfterFsync: return "after-fsync";
    case WritePhase::kAfterRename: return "after-rename";
    case WritePhase::kDone: return "done";
  }
  return "?";
}

bool ParseWritePhase(const std::string& name, WritePhase& phase) {
  for (WritePhase candidate : {WritePhase::kBeforeWrite, WritePhase::kMidWrite, WritePhase::kAfterFsync,
                               WritePhase::kAfterRename, WritePhase::kDone}) {
    if (name == WritePhaseName(candidate)) {
      phase = candidate;
      return true;
    }
  }
  return false;
}

Result<bool> WriteCheckpoint(const WriteRequest& request, const std::function<void(WritePhase)>& on_phase) {
  const std::string bytes = BuildCheckpoint(request.spec);
  const std::string final_path = request.dir + "/" + request.name;
  const bool atomic = request.mode == WriteMode::kAtomic;
  const std::string temp_dir = request.temp_dir.empty() ? request.dir : request.temp_dir;
  const std::string path =
      atomic ? temp_dir + "/" + kTempPrefix + request.name + "." + std::to_string(::getpid()) : final_path;
  const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (atomic ? O_EXCL : 0);
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) return Error{Errno("open", path)};
  on_phase(WritePhase::kBeforeWrite);
  const std::size_t chunk = static_cast<std::size_t>(request.spec.chunk_bytes);
  const std::size_t half = bytes.size() / 2;
  bool half_reported = false;
  for (std::size_t offset = 0; offset < bytes.size(); offset += chunk) {
    if (!half_reported && offset >= half) {
      on_phase(WritePhase::kMidWrite);
      half_reported = true;
    }
    auto wrote = WriteAll(fd, bytes, offset, std::min(bytes.size(), offset + chunk), path);
    if (!wrote) {
      ::close(fd);
      return wrote;
    }
    if (request.pause_us_per_chunk > 0) ::usleep(static_cast<useconds_t>(request.pause_us_per_chunk));
  }
  if (::fsync(fd) != 0) {
    const std::string problem = Errno("fsync", path);
    ::close(fd);
    return Error{problem};
  }
  ::close(fd);
  on_phase(WritePhase::kAfterFsync);
  if (atomic) {
    if (::rename(path.c_str(), final_path.c_str()) != 0) {
      const std::string problem = Errno("rename " + path + " to", final_path);
      ::unlink(path.c_str());
      return Error{problem};
    }
    on_phase(WritePhase::kAfterRename);
    auto synced = FsyncDirectory(request.dir);
    if (!synced) return synced;
  }
  on_phase(WritePhase::kDone);
  return true;
}

int CheckpointWriterMain(const std::vector<std::string>& args) {
  // The writer must not outlive the probe that controls it (a killed run leaves no writer).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::map<std::string, std::string> options;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) options[args[i]] = args[i + 1];
  WriteRequest request;
  request.dir = options["--dir"];
  request.name = options["--name"];
  request.temp_dir = options["--temp-dir"];
  request.spec.version = std::strtoull(options["--version"].c_str(), nullptr, 10);
  request.spec.writer = static_cast<std::uint32_t>(std::strtoul(options["--writer"].c_str(), nullptr, 10));
  request.spec.payload_bytes = std::strtoull(options["--bytes"].c_str(), nullptr, 10);
  request.mode = options["--mode"] == "in-place" ? WriteMode::kInPlace : WriteMode::kAtomic;
  WritePhase stop_at = WritePhase::kDone;
  const bool stops = options.count("--stop-at") != 0 && ParseWritePhase(options["--stop-at"], stop_at);
  if (request.dir.empty() || request.name.empty() || request.spec.payload_bytes == 0 ||
      (options.count("--stop-at") != 0 && !stops)) {
    std::cout << "error usage: " << kWriterVerb
              << " --dir D --name N --version V --writer W --bytes B --mode atomic|in-place [--stop-at PHASE]"
              << std::endl;
    return 2;
  }
  auto written = WriteCheckpoint(request, [&](WritePhase phase) {
    std::cout << "phase " << WritePhaseName(phase) << std::endl;
    if (stops && phase == stop_at) {
      for (;;) ::pause();  // the probe kills us here
    }
  });
  if (!written) {
    std::cout << "error " << written.error() << std::endl;
    return 2;
  }
  return 0;
}

namespace {
const ChildVerbRegistration kChildVerb(kWriterVerb, CheckpointWriterMain);
}  // namespace

}  // namespace gpuconform::checkpoint
