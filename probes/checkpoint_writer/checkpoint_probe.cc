#include "probes/checkpoint_writer/checkpoint_probe.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/process.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "harness/core/os_error.h"
#include "harness/core/termination.h"
#include "harness/util/record_lines.h"
#include "probes/checkpoint_writer/checkpoint_format.h"
#include "probes/checkpoint_writer/checkpoint_writer.h"
#include "probes/checkpoint_writer/filesystem_names.h"

namespace gpuconform::checkpoint {

namespace {

namespace fs = std::filesystem;
namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

constexpr char kRunPrefix[] = "gpuconform-run-";
constexpr std::uint64_t kChunkBytes = 64 * 1024;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One output record (harness/util/record_lines.h), built field by field.
class Record {
 public:
  explicit Record(std::string kind) : kind_(std::move(kind)) {}
  Record& Add(const std::string& key, const std::string& value) {
    fields_.emplace_back(key, value);
    return *this;
  }
  Record& Add(const std::string& key, long long value) { return Add(key, std::to_string(value)); }
  Record& Add(const std::string& key, double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.3f", value);
    return Add(key, std::string(text));
  }
  std::string Line() const { return FormatRecord(kind_, fields_) + "\n"; }

 private:
  std::string kind_;
  std::vector<std::pair<std::string, std::string>> fields_;
};

// In the one wording the checks classify (harness/core/os_error.h): "... (errno 30)".
std::string Errno(const std::string& what) { return OsErrorText(what, errno); }

std::optional<std::string> ReadWhole(const std::string& path, std::string& problem) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    problem = errno == ENOENT ? "missing" : Errno("open " + path);
    return std::nullopt;
  }
  std::string bytes;
  char buffer[1 << 16];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      problem = Errno("read " + path);
      ::close(fd);
      return std::nullopt;
    }
    if (got == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return bytes;
}

// The state of a final path as a reader sees it: "complete", "torn" or "missing".
struct Seen {
  std::string state;
  CheckpointState checkpoint;
  std::string problem;
};

Seen Look(const std::string& path) {
  std::string problem;
  auto bytes = ReadWhole(path, problem);
  if (!bytes) return {problem == "missing" ? "missing" : "unreadable", {}, problem};
  CheckpointState state = VerifyCheckpoint(*bytes);
  return {state.complete ? "complete" : "torn", state, state.problem};
}

Record& AddSeen(Record& record, const Seen& seen) {
  record.Add("state", seen.state);
  if (seen.state == "complete") {
    record.Add("version", static_cast<long long>(seen.checkpoint.version));
    record.Add("writer", static_cast<long long>(seen.checkpoint.writer));
  }
  if (seen.state != "missing") record.Add("size", static_cast<long long>(seen.checkpoint.size_bytes));
  if (!seen.problem.empty()) record.Add("problem", seen.problem);
  return record;
}

std::string FilesystemOf(const std::string& path) {
  struct statfs info {};
  if (::statfs(path.c_str(), &info) != 0) return "unknown";
  return FilesystemTypeName(static_cast<unsigned long>(info.f_type));
}

std::string RandomHex() {
  std::random_device device;
  std::ostringstream text;
  text << std::hex << device() << device();
  return text.str();
}

// A run directory of this host whose owner process is gone was left by a killed run.
std::vector<std::string> SweepKilledRuns(const std::string& target, const std::string& host) {
  std::vector<std::string> swept;
  const std::string mine = std::string(kRunPrefix) + host + "-";
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(target, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(mine, 0) != 0 || !entry.is_directory(error)) continue;
    const std::string rest = name.substr(mine.size());
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
      fs::remove_all(entry.path(), error);
      swept.push_back(name);
    }
  }
  return swept;
}

// What every stage shares: the rank's context, the options, the run directory and the
// output so far.
struct Stages {
  Stages(const CollectiveContext& run_context, const ProbeOptions& run_options)
      : context(run_context), options(run_options) {}

  // Waits for every rank; past the stage deadline the run is given up with a report.
  void Barrier(const std::string& stage) {
    context.world.SleepingBarrier({"the Checkpoint stage '" + stage + "'",
                                   std::chrono::seconds(options.stage_timeout_s),
                                   "a node's storage is hung (an unresponsive NFS/Lustre mount, or a full disk) or a "
                                   "rank stopped"});
  }
  // Rank 0's word, given to every rank.
  std::string FromRoot(const std::string& mine) { return context.world.AllGather(mine, Word()).front(); }
  bool AllTrue(bool mine) {
    for (const auto& answer : context.world.AllGather(mine ? "1" : "0", Word())) {
      if (answer != "1") return false;
    }
    return true;
  }

  // The small exchanges between stages, right after a barrier: no storage work inside.
  Exchange Word() const {
    return {"an exchange between Checkpoint stages", std::chrono::seconds(context.options.collective_timeout_s)};
  }
  bool root() const { return context.world.is_root(); }
  bool owner() const { return context.node_owner; }
  const std::string& host() const { return context.host; }

  const CollectiveContext& context;
  const ProbeOptions& options;
  std::string run_dir;
  std::string out;
};

CheckpointSpec Spec(const ProbeOptions& options, std::uint64_t version, std::uint32_t writer) {
  return CheckpointSpec{version, writer, static_cast<std::uint64_t>(options.expect.test_file_bytes), kChunkBytes};
}

Result<bool> PublishInProcess(const std::string& dir, const std::string& name, const CheckpointSpec& spec) {
  WriteRequest request;
  request.dir = dir;
  request.name = name;
  request.spec = spec;
  return WriteCheckpoint(request, [](WritePhase) {});
}

void StageShared(Stages& s) {
  std::string token;
  if (s.root()) {
    token = RandomHex();
    std::ofstream(s.run_dir + "/token") << token;
  }
  token = s.FromRoot(token);
  if (s.owner()) {
    std::string problem;
    auto seen = ReadWhole(s.run_dir + "/token", problem);
    const bool sees = seen && *seen == token;
    Record record("shared");
    record.Add("sees_token", sees ? "yes" : "no");
    if (!sees) record.Add("problem", seen ? "the token differs: a different directory by that name" : problem);
    s.out += record.Line();
  }
}

void StageTempLocation(Stages& s) {
  if (!s.owner()) return;
  const std::string temp_dir = s.options.expect.temp_dir;
  Record record("temp");
  if (temp_dir.empty()) {
    record.Add("path", s.run_dir).Add("fs", FilesystemOf(s.run_dir)).Add("same_device", "yes").Add("rename", "ok");
    record.Add("note", "temporary files are written beside the final path");
    s.out += record.Line();
    return;
  }
  struct stat temp_info {}, target_info {};
  const bool stat_ok = ::stat(temp_dir.c_str(), &temp_info) == 0 && ::stat(s.run_dir.c_str(), &target_info) == 0;
  record.Add("path", temp_dir).Add("fs", FilesystemOf(temp_dir)).Add("target_fs", FilesystemOf(s.run_dir));
  record.Add("same_device", stat_ok && temp_info.st_dev == target_info.st_dev ? "yes" : "no");
  const std::string from = temp_dir + "/" + kTempPrefix + "probe-" + s.host() + "-" + std::to_string(::getpid());
  const std::string to = s.run_dir + "/temp-" + s.host();
  const int fd = ::open(from.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    record.Add("rename", "not-tried").Add("problem", Errno("create " + from));
  } else {
    ::close(fd);
    if (::rename(from.c_str(), to.c_str()) == 0) {
      record.Add("rename", "ok");
      ::unlink(to.c_str());
    } else {
      const int failure = errno;
      record.Add("rename", failure == EXDEV ? "EXDEV" : "failed");
      record.Add("problem", OsErrorText("rename " + from + " -> " + to, failure));
      ::unlink(from.c_str());
    }
  }
  s.out += record.Line();
}

void StageCapacity(Stages& s) {
  if (!s.owner()) return;
  struct statvfs info {};
  Record record("capacity");
  if (::statvfs(s.run_dir.c_str(), &info) != 0) {
    record.Add("problem", Errno("statvfs " + s.run_dir));
  } else {
    record.Add("avail_bytes", static_cast<long long>(info.f_bavail) * static_cast<long long>(info.f_frsize));
    record.Add("total_bytes", static_cast<long long>(info.f_blocks) * static_cast<long long>(info.f_frsize));
  }
  s.out += record.Line();
}

// Readers poll the final path until they see the last version whole, or the deadline.
struct ReaderTally {
  long long reads = 0, complete = 0, missing = 0, torn = 0;
  std::uint64_t last_version = 0;
  std::vector<Seen> torn_examples;
};

ReaderTally PollWhilePublishing(const std::string& path, std::uint64_t last_version, std::chrono::seconds deadline) {
  ReaderTally tally;
  const auto start = Clock::now();
  while (Clock::now() - start < deadline) {
    const Seen seen = Look(path);
    ++tally.reads;
    if (seen.state == "complete") {
      ++tally.complete;
      tally.last_version = std::max(tally.last_version, seen.checkpoint.version);
      if (seen.checkpoint.version >= last_version) break;
    } else if (seen.state == "missing") {
      ++tally.missing;
    } else {
      ++tally.torn;
      if (tally.torn_examples.size() < 3) tally.torn_examples.push_back(seen);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return tally;
}

void StagePublish(Stages& s) {
  const int versions = s.options.expect.publish_versions;
  const std::string name = "published.ckpt";
  if (s.root()) {
    auto first = PublishInProcess(s.run_dir, name, Spec(s.options, 0, 0));
    if (!first) s.out += Record("error").Add("stage", "publish").Add("problem", first.error()).Line();
  }
  s.Barrier("publish: first version");
  const auto deadline = std::chrono::seconds(60 + s.options.expect.visibility_deadline_s);
  ReaderTally tally;
  std::thread reader;
  if (s.owner()) {
    reader = std::thread([&] { tally = PollWhilePublishing(s.run_dir + "/" + name, versions, deadline); });
  }
  if (s.root()) {
    const auto start = Clock::now();
    for (int v = 1; v <= versions; ++v) {
      auto published = PublishInProcess(s.run_dir, name, Spec(s.options, v, 0));
      if (!published) {
        s.out += Record("error").Add("stage", "publish").Add("problem", published.error()).Line();
        break;
      }
    }
    s.out += Record("publish")
                 .Add("role", "writer")
                 .Add("versions", static_cast<long long>(versions))
                 .Add("bytes", s.options.expect.test_file_bytes)
                 .Add("elapsed_ms", MillisecondsSince(start))
                 .Line();
  }
  if (reader.joinable()) reader.join();
  if (s.owner()) {
    s.out += Record("publish")
                 .Add("role", "reader")
                 .Add("reads", tally.reads)
                 .Add("complete", tally.complete)
                 .Add("missing", tally.missing)
                 .Add("torn", tally.torn)
                 .Add("last_version", static_cast<long long>(tally.last_version))
                 .Add("expected_last_version", static_cast<long long>(versions))
                 .Line();
    for (const auto& seen : tally.torn_examples) {
      Record record("publish-torn");
      s.out += AddSeen(record, seen).Line();
    }
  }
  s.Barrier("publish");
}

// One writer child, stopped at `phase` (or killed after a random delay into its write).
struct Kill {
  std::string phase;  // the phase it was killed at, or "random"
  long long delay_us = 0;
  std::string problem;  // the child failed before it could be killed
};

Kill KillWriterAt(Stages& s, WriteMode mode, std::uint64_t version, std::optional<WritePhase> phase,
                  std::mt19937& random, double write_ms) {
  Kill kill;
  kill.phase = phase ? WritePhaseName(*phase) : "random";
  // A run that is ending starts no writer: its handler is about to remove the run directory,
  // which a writer started now would fill again.
  if (const auto notice = Termination()) {
    kill.problem = "no writer started: " + notice->Describe();
    return kill;
  }
  std::vector<std::string> args = {kWriterVerb, "--dir", s.run_dir, "--name", "torture.ckpt", "--version",
                                   std::to_string(version), "--writer", "0", "--bytes",
                                   std::to_string(s.options.expect.test_file_bytes), "--mode", WriteModeName(mode)};
  if (phase) {
    args.push_back("--stop-at");
    args.push_back(WritePhaseName(*phase));
  }
  bp::pipe pipe;
  std::error_code error;
  bp::child child(s.options.writer_executable, bp::args(args), bp::std_out > pipe, bp::std_err > bp::null,
                  bp::std_in < bp::null, error);
  if (error) {
    kill.problem = "could not start the writer " + s.options.writer_executable + ": " + error.message();
    return kill;
  }
  // Termination (harness/core/termination.h) kills the writer first, so it cannot write into the
  // run directory it then removes.
  RegisterChildGroup(child.id());
  ::close(pipe.native_sink());
  pipe.assign_sink(-1);
  // The child says "phase <name>" as it passes each phase; wait for the one we kill it at.
  const std::string wanted = "phase " + std::string(phase ? WritePhaseName(*phase) : "before-write");
  std::string lines;
  const auto start = Clock::now();
  bool reached = false;
  while (!reached && Clock::now() - start < std::chrono::seconds(30)) {
    char buffer[256];
    const ssize_t got = ::read(pipe.native_source(), buffer, sizeof(buffer));
    if (got <= 0) break;  // the child exited (an error line says why)
    lines.append(buffer, static_cast<std::size_t>(got));
    reached = lines.find(wanted + "\n") != std::string::npos;
  }
  if (!reached) {
    kill.problem = "the writer did not reach '" + wanted + "': " + (lines.empty() ? "no output" : lines);
    ::kill(child.id(), SIGKILL);
    child.wait(error);
    UnregisterChildGroup(child.id());
    return kill;
  }
  if (!phase) {
    std::uniform_real_distribution<double> delay(0.0, std::max(1.0, write_ms) * 1000.0);
    kill.delay_us = static_cast<long long>(delay(random));
    std::this_thread::sleep_for(std::chrono::microseconds(kill.delay_us));
  }
  ::kill(child.id(), SIGKILL);
  child.wait(error);
  UnregisterChildGroup(child.id());
  return kill;
}

std::vector<std::pair<std::string, long long>> Leftovers(const std::string& dir) {
  std::vector<std::pair<std::string, long long>> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kTempPrefix, 0) != 0) continue;
    const auto size = entry.file_size(error);
    found.emplace_back(name, error ? -1 : static_cast<long long>(size));
    fs::remove(entry.path(), error);
  }
  return found;
}

void StageTorture(Stages& s, WriteMode mode, int kills, std::mt19937& random) {
  const std::string final_path = s.run_dir + "/torture.ckpt";
  const std::string mode_name = WriteModeName(mode);
  double write_ms = 1.0;
  if (s.root()) {
    // Start from a complete checkpoint, and learn how long a write takes for the random kills.
    const auto start = Clock::now();
    auto first = PublishInProcess(s.run_dir, "torture.ckpt", Spec(s.options, 0, 0));
    write_ms = MillisecondsSince(start);
    if (!first) s.out += Record("error").Add("stage", "torture " + mode_name).Add("problem", first.error()).Line();
  }
  const std::vector<std::optional<WritePhase>> phases = {WritePhase::kBeforeWrite, WritePhase::kMidWrite,
                                                         WritePhase::kAfterFsync, WritePhase::kAfterRename,
                                                         std::nullopt};
  for (int i = 1; i <= kills; ++i) {
    // Ending: the termination handler judges what was taken and removes the run directory; a
    // round now would only write into it again.
    ParkIfEnding();
    std::optional<WritePhase> phase = phases[static_cast<std::size_t>(i - 1) % phases.size()];
    if (mode == WriteMode::kInPlace && phase == WritePhase::kAfterRename) phase = WritePhase::kMidWrite;  // no rename
    if (s.root()) {
      const Kill kill = KillWriterAt(s, mode, static_cast<std::uint64_t>(i), phase, random, write_ms);
      Record record("kill");
      record.Add("mode", mode_name).Add("index", static_cast<long long>(i)).Add("phase", kill.phase);
      if (!phase) record.Add("delay_us", kill.delay_us);
      if (!kill.problem.empty()) record.Add("problem", kill.problem);
      s.out += record.Line();
    }
    s.Barrier("torture " + mode_name + " kill " + std::to_string(i));
    if (s.owner()) {
      Record record("verify");
      record.Add("mode", mode_name).Add("index", static_cast<long long>(i));
      s.out += AddSeen(record, Look(final_path)).Line();
    }
    s.Barrier("torture " + mode_name + " verify " + std::to_string(i));
    if (s.root()) {
      for (const auto& [name, bytes] : Leftovers(s.run_dir)) {
        s.out += Record("leftover")
                     .Add("mode", mode_name)
                     .Add("index", static_cast<long long>(i))
                     .Add("file", name)
                     .Add("bytes", bytes)
                     .Line();
      }
      // The in-place control starts each round from a whole file, so every kill is judged alone.
      if (mode == WriteMode::kInPlace) PublishInProcess(s.run_dir, "torture.ckpt", Spec(s.options, 0, 0));
    }
  }
  s.Barrier("torture " + mode_name);
}

void StageVisibility(Stages& s) {
  constexpr int kTrials = 3;
  const auto deadline = std::chrono::seconds(s.options.expect.visibility_deadline_s);
  const std::string root_host = s.FromRoot(s.host());
  for (int t = 0; t < kTrials; ++t) {
    const std::string name = "visible-" + std::to_string(t) + ".ckpt";
    s.Barrier("visibility trial " + std::to_string(t) + " start");
    const auto start = Clock::now();
    if (s.root()) {
      auto published = PublishInProcess(s.run_dir, name, Spec(s.options, static_cast<std::uint64_t>(t), 0));
      Record record("visible");
      record.Add("trial", static_cast<long long>(t)).Add("role", "writer").Add("published_ms", MillisecondsSince(start));
      if (!published) record.Add("problem", published.error());
      s.out += record.Line();
    } else if (s.owner() && s.host() != root_host) {
      Seen seen;
      while (Clock::now() - start < deadline) {
        seen = Look(s.run_dir + "/" + name);
        if (seen.state == "complete") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      Record record("visible");
      record.Add("trial", static_cast<long long>(t)).Add("role", "reader");
      if (seen.state == "complete") {
        record.Add("seen_ms", MillisecondsSince(start));
      } else {
        record.Add("seen_ms", "timeout").Add("state", seen.state);
        if (!seen.problem.empty()) record.Add("problem", seen.problem);
      }
      s.out += record.Line();
    }
    s.Barrier("visibility trial " + std::to_string(t));
  }
}

void StageWriters(Stages& s) {
  // Without the rank-0 guard: every rank writes the one path at once, in place, as a
  // training script that calls save() on every rank does. Chunks are small and paced so the
  // writers overlap, and rank r starts r x 5 ms late, so rank 0 is not the last to finish (at
  // scale any rank may be): the file left is then torn, or whole but another rank's.
  const std::string shared_name = "unguarded.ckpt";
  s.Barrier("writers: start");
  WriteRequest request;
  request.dir = s.run_dir;
  request.name = shared_name;
  request.mode = WriteMode::kInPlace;
  request.spec = CheckpointSpec{1, static_cast<std::uint32_t>(s.context.world.rank()),
                                static_cast<std::uint64_t>(s.options.expect.test_file_bytes), 16 * 1024};
  request.pause_us_per_chunk = 200;
  std::this_thread::sleep_for(std::chrono::milliseconds(5 * s.context.world.rank()));
  auto wrote = WriteCheckpoint(request, [](WritePhase) {});
  if (!wrote) s.out += Record("error").Add("stage", "writers").Add("problem", wrote.error()).Line();
  s.Barrier("writers: unguarded");
  if (s.owner()) {
    Record record("writers");
    record.Add("guard", "none").Add("ranks", static_cast<long long>(s.context.world.size()));
    s.out += AddSeen(record, Look(s.run_dir + "/" + shared_name)).Line();
  }
  s.Barrier("writers: unguarded verify");
  if (s.root()) {
    auto guarded = PublishInProcess(s.run_dir, "guarded.ckpt", Spec(s.options, 1, 0));
    if (!guarded) s.out += Record("error").Add("stage", "writers").Add("problem", guarded.error()).Line();
  }
  s.Barrier("writers: guarded");
  if (s.owner()) {
    Record record("writers");
    record.Add("guard", "rank0").Add("ranks", static_cast<long long>(s.context.world.size()));
    s.out += AddSeen(record, Look(s.run_dir + "/guarded.ckpt")).Line();
  }
  s.Barrier("writers");
}

// Reads a file after asking the kernel to drop its cached pages, so the storage is measured.
long long ReadColdly(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  std::vector<char> buffer(1 << 20);
  long long total = 0;
  while (true) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    total += got;
  }
  ::close(fd);
  return total;
}

void StageRead(Stages& s) {
  const int readers = std::max(1, s.options.expect.parallel_readers);
  const long long bytes = s.options.expect.read_bytes_per_reader;
  std::vector<std::string> files;
  std::string problem;
  if (s.owner()) {
    const std::string block(1 << 20, 'r');
    for (int i = 0; i < readers && problem.empty(); ++i) {
      files.push_back(s.run_dir + "/read-" + s.host() + "-" + std::to_string(i));
      const int fd = ::open(files.back().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) {
        problem = Errno("create " + files.back());
        break;
      }
      for (long long written = 0; written < bytes;) {
        const ssize_t wrote = ::write(fd, block.data(), static_cast<std::size_t>(std::min<long long>(
                                                            static_cast<long long>(block.size()), bytes - written)));
        if (wrote <= 0) {
          problem = Errno("write " + files.back());
          break;
        }
        written += wrote;
      }
      ::fsync(fd);
      ::close(fd);
    }
    if (!problem.empty()) s.out += Record("error").Add("stage", "read").Add("problem", problem).Line();
  }
  for (int count : {1, readers}) {
    s.Barrier("read: " + std::to_string(count) + " reader(s) start");
    if (s.owner() && problem.empty()) {
      std::vector<long long> got(static_cast<std::size_t>(count), 0);
      const auto start = Clock::now();
      std::vector<std::thread> threads;
      for (int i = 0; i < count; ++i) {
        threads.emplace_back([&, i] { got[static_cast<std::size_t>(i)] = ReadColdly(files[static_cast<std::size_t>(i)]); });
      }
      for (auto& thread : threads) thread.join();
      const double elapsed = MillisecondsSince(start);
      long long total = 0;
      for (long long g : got) total += std::max(0LL, g);
      s.out += Record("read").Add("readers", static_cast<long long>(count)).Add("bytes", total).Add("elapsed_ms", elapsed).Line();
    }
    s.Barrier("read: " + std::to_string(count) + " reader(s)");
  }
  std::error_code error;
  for (const auto& file : files) fs::remove(file, error);
}

}  // namespace

ProbeOptions LiveProbeOptions(const Profile* profile, const RunOptions& run) {
  ProbeOptions options;
  if (const auto* checkpoint = profile != nullptr ? profile->Get<CheckpointExpectation>() : nullptr) {
    options.expect = *checkpoint;
    options.configured = true;
  }
  if (!run.checkpoint_dir.empty()) {
    options.target_dir = run.checkpoint_dir;
    options.target_origin = "GPUCONFORM_CHECKPOINT_DIR (or --checkpoint-dir)";
  } else if (!options.expect.dir.empty()) {
    options.target_dir = options.expect.dir;
    options.target_origin = "the profile's checkpoint.dir";
  } else if (!run.slurm_submit_dir.empty()) {
    std::error_code error;
    const std::string candidate = run.slurm_submit_dir + "/checkpoints";
    if (fs::is_directory(candidate, error)) {
      options.target_dir = candidate;
      options.target_origin = "$SLURM_SUBMIT_DIR/checkpoints";
    }
  }
  if (run.checkpoint_kills > 0) options.expect.torture_kills = run.checkpoint_kills;
  options.stage_timeout_s = run.checkpoint_stage_timeout_s;
  std::error_code error;
  options.writer_executable = fs::read_symlink("/proc/self/exe", error).string();
  return options;
}

std::string RunCheckpointProbe(const CollectiveContext& context, const ProbeOptions& options) {
  Stages s(context, options);
  s.out = Record("checkpoint-probe").Add("version", 1LL).Add("node", context.host).Line();
  if (!options.configured) {  // the same on every rank: no collective is skipped by some only
    return s.out + Record("skipped").Add("reason", "the profile has no checkpoint section").Line();
  }
  // Setup: rank 0 decides the run directory, or why there is none; every rank follows it.
  std::string decision;
  if (s.root()) {
    std::error_code error;
    if (options.target_dir.empty()) {
      decision = "!no checkpoint directory: pass --checkpoint-dir DIR (a directory on the shared storage the training "
                 "jobs write to), set checkpoint.dir in the profile, or create $SLURM_SUBMIT_DIR/checkpoints";
    } else if (!fs::is_directory(options.target_dir, error)) {
      decision = "!the checkpoint directory " + options.target_dir + " (from " + options.target_origin +
                 ") does not exist or is not a directory";
    } else {
      for (const auto& swept : SweepKilledRuns(options.target_dir, context.host)) {
        s.out += Record("swept").Add("dir", swept).Line();
      }
      const std::string run_dir = options.target_dir + "/" + kRunPrefix + context.host + "-" +
                                  std::to_string(::getpid()) + "-" + RandomHex();
      if (::mkdir(run_dir.c_str(), 0755) != 0) {
        decision = "!" + Errno("cannot create the run directory " + run_dir);
      } else {
        decision = run_dir;
      }
    }
  }
  decision = s.FromRoot(decision);
  if (!decision.empty() && decision.front() == '!') {
    s.out += Record("error").Add("stage", "setup").Add("problem", decision.substr(1)).Line();
    return s.out;
  }
  s.run_dir = decision;
  // A run terminated (scancel, a job's time limit, ^C) removes it (harness/core/termination.h).
  if (s.root()) RegisterRunDirectory(s.run_dir);
  if (s.owner()) {
    s.out += Record("target")
                 .Add("path", options.target_dir)
                 .Add("origin", options.target_origin)
                 .Add("fs", FilesystemOf(options.target_dir))
                 .Add("run_dir", s.run_dir)
                 .Line();
  }
  s.Barrier("setup");
  StageShared(s);
  const bool shared = s.AllTrue(!s.owner() || s.out.find("sees_token=yes") != std::string::npos);
  if (shared) {
    std::mt19937 random(std::random_device{}());
    // Between stages, a run that is ending parks here: each stage writes into the run directory
    // that the termination handler removes.
    const std::vector<std::function<void()>> stages = {
        [&] { StageTempLocation(s); },
        [&] { StageCapacity(s); },
        [&] { StagePublish(s); },
        [&] { StageTorture(s, WriteMode::kAtomic, options.expect.torture_kills, random); },
        [&] { StageTorture(s, WriteMode::kInPlace, options.expect.negative_control_kills, random); },
        [&] { StageVisibility(s); },
        [&] { StageWriters(s); },
        [&] { StageRead(s); }};
    for (const auto& stage : stages) {
      ParkIfEnding();
      stage();
    }
  } else if (s.owner()) {
    s.out += Record("skipped").Add("reason", "the target is not shared by every node of the run").Line();
  }
  s.Barrier("cleanup");
  if (s.root()) {
    std::error_code error;
    fs::remove_all(s.run_dir, error);
    UnregisterRunDirectory(s.run_dir);
    Record record("cleanup");
    record.Add("removed", error ? "no" : "yes");
    if (error) record.Add("problem", s.run_dir + ": " + error.message() + " (errno " + std::to_string(error.value()) + ")");
    s.out += record.Line();
  }
  return s.out;
}

RawOutput ProbeCheckpoint(const CollectiveContext& context) {
  const std::string text = RunCheckpointProbe(context, LiveProbeOptions(context.profile, context.options));
  return RawOutput{ProbeStatus::kOk, text, context.host + ": Checkpoint probe", ""};
}

const ProbeSpec& CheckpointProbe() {
  static const ProbeSpec kSpec = Active(CollectiveProbe("checkpoint", "checkpoint.txt", ProbeCheckpoint));
  return kSpec;
}

}  // namespace gpuconform::checkpoint
