#include "probes/resource_limits/resource_exhaustion.h"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <initializer_list>
#include <string_view>

#include "harness/util/text_util.h"

namespace gpuconform::resource_limits {

namespace {

bool HasAny(std::string_view lowered, std::initializer_list<std::string_view> needles) {
  for (const auto needle : needles) {
    if (lowered.find(needle) != std::string_view::npos) return true;
  }
  return false;
}

// The line, or where it is long (a traceback flattened into one record), the part around the
// words that matched.
std::string Excerpt(std::string_view line, std::initializer_list<std::string_view> needles) {
  constexpr std::size_t kLongest = 240;
  line = Trim(line);
  if (line.size() <= kLongest) return std::string(line);
  const std::string lowered = Lowercase(line);
  std::size_t at = std::string::npos;
  for (const auto needle : needles) at = std::min(at, lowered.find(needle));
  at = std::min(at, lowered.size());
  const std::size_t start = at > kLongest / 2 ? at - kLongest / 2 : 0;
  return (start > 0 ? "..." : "") + std::string(line.substr(start, kLongest)) + "...";
}

// The first line whose lowercase form has any of `needles` (and, where given, any of `also`).
std::optional<std::string> LineWith(const std::vector<std::string>& text, std::initializer_list<std::string_view> needles,
                                    std::initializer_list<std::string_view> also = {}) {
  for (const auto& line : text) {
    const std::string lowered = Lowercase(line);
    if (HasAny(lowered, needles) && (also.size() == 0 || HasAny(lowered, also))) return Excerpt(line, needles);
  }
  return std::nullopt;
}

std::string Limited(long long bytes) { return bytes < 0 ? "unlimited" : BinarySize(bytes); }

std::string ShmLimit(const NodeLimits& limits) {
  if (!limits.shm_bytes) return "";
  std::string text = "/dev/shm is " + BinarySize(*limits.shm_bytes);
  if (limits.shm_free_bytes) text += " (" + BinarySize(*limits.shm_free_bytes) + " free)";
  return text;
}

const std::initializer_list<std::string_view> kNoSpace = {"no space left on device", "[errno 28]", "(errno 28)",
                                                              "enospc"};

// The path an ENOSPC line names, where it names one: Python's "...device: '/path'" after the
// words, PyTorch's "<file>" or a C-style "create /path: ..." before them. A traceback flattened
// into one line names its source files too ('/usr/lib/...py'): only these places count.
std::string PathIn(std::string_view line) {
  const std::string lowered = Lowercase(line);
  std::size_t at = std::string::npos;
  for (const auto needle : kNoSpace) at = std::min(at, lowered.find(needle));
  if (at == std::string::npos) return "";
  const std::string_view after = line.substr(at);
  if (const auto open = after.find("'/"); open != std::string_view::npos) {
    const auto close = after.find('\'', open + 1);
    if (close != std::string_view::npos) return std::string(after.substr(open + 1, close - open - 1));
  }
  const std::string_view before = line.substr(0, at);
  if (const auto open = before.rfind("</"); open != std::string_view::npos) {
    const auto close = before.find('>', open);
    if (close != std::string_view::npos) return std::string(before.substr(open + 1, close - open - 1));
  }
  const auto words = SplitWords(before);
  if (!words.empty() && words.back().size() > 1 && words.back().front() == '/') {
    return std::string(words.back().substr(0, words.back().find_first_of(":,)")));
  }
  return "";
}

bool IsShmPath(std::string_view path) {
  return path.starts_with("/dev/shm") || path.starts_with("/torch_") || path.starts_with("/nccl-") ||
         path.starts_with("/sem.") || path.starts_with("/psm_");
}

Exhaustion Make(Resource resource, ReasonCode code, std::string name, std::string evidence, std::string limit,
                std::string fix) {
  return {resource, code, std::move(name), std::move(evidence), std::move(limit), std::move(fix)};
}

Exhaustion SharedMemory(std::string evidence, const NodeLimits& limits) {
  return Make(Resource::kSharedMemory, "shm-exhausted", "/dev/shm", std::move(evidence), ShmLimit(limits),
              "give the node's /dev/shm room (mount -o remount,size=16G /dev/shm; in a container --shm-size or "
              "--ipc=host): DataLoader workers pass every batch through it, NCCL its intra-node buffers");
}

std::optional<Exhaustion> LockedMemory(const WorkerDeath& death, const NodeLimits& limits) {
  auto line = LineWith(death.text, {"rlimit_memlock", "locked memory", "memlock"});
  if (!line) {
    line = LineWith(death.text, {"cannot allocate memory", "errno 12", "enomem"},
                    {"ibv_", "reg_mr", "mr_reg", "create_cq", "register memory", "openib", "mlx5"});
  }
  if (!line) return std::nullopt;
  return Make(Resource::kLockedMemory, "memlock-too-low", "locked memory (RLIMIT_MEMLOCK)", *line,
              limits.memlock_bytes ? "RLIMIT_MEMLOCK is " + Limited(*limits.memlock_bytes) : "",
              "make locked memory unlimited for jobs: memlock unlimited in /etc/security/limits.conf, "
              "LimitMEMLOCK=infinity in slurmd's systemd unit (jobs inherit slurmd's limit), and "
              "PropagateResourceLimitsExcept=MEMLOCK in slurm.conf");
}

std::optional<Exhaustion> SharedMemoryDeath(const WorkerDeath& death, const NodeLimits& limits) {
  if (auto line = LineWith(death.text, {"bus error", "sigbus", "insufficient shared memory", "failed to extend /dev/shm",
                                        "shared memory segment", "shared-memory backing file"})) {
    return SharedMemory(*line, limits);
  }
  if (auto line = LineWith(death.text, kNoSpace)) {
    const std::string path = PathIn(*line);
    const bool small = limits.shm_bytes && *limits.shm_bytes < kSmallShmBytes;
    // NCCL's posix_fallocate is of its /dev/shm segments.
    const std::string lowered = Lowercase(*line);
    if (IsShmPath(path) || lowered.find("shared memory") != std::string::npos ||
        lowered.find("posix_fallocate") != std::string::npos || (path.empty() && small)) {
      return SharedMemory(*line, limits);
    }
  }
  const bool bus = death.signal == SIGBUS || death.exit_code == 128 + SIGBUS;
  if (bus && !death.killed_by_deadline) {
    return SharedMemory(death.signal ? "killed by SIGBUS" : "exit 135 (128 + SIGBUS)", limits);
  }
  return std::nullopt;
}

std::optional<Exhaustion> OpenFiles(const WorkerDeath& death, const NodeLimits& limits) {
  // "received 0 items of ancdata": PyTorch's file_descriptor sharing strategy out of descriptors.
  auto line = LineWith(death.text, {"too many open files", "emfile", "enfile", "[errno 24]", "(errno 24)", "[errno 23]",
                                    "(errno 23)", "received 0 items of ancdata"});
  if (!line) return std::nullopt;
  return Make(Resource::kOpenFiles, "open-files-exhausted", "open files (RLIMIT_NOFILE)", *line,
              limits.open_files ? "RLIMIT_NOFILE is " + (*limits.open_files < 0 ? std::string("unlimited")
                                                                                 : std::to_string(*limits.open_files))
                                : "",
              "raise the open-files limit for jobs (nofile in /etc/security/limits.conf, LimitNOFILE= in slurmd's "
              "systemd unit; srun propagates the submitting shell's ulimit -n unless PropagateResourceLimitsExcept "
              "names NOFILE); \"in system\" is fs.file-max");
}

std::optional<Exhaustion> Memory(const WorkerDeath& death, const NodeLimits& limits) {
  auto line = LineWith(death.text, {"out of memory", "outofmemoryerror", "memoryerror", "oom-kill", "oom_kill",
                                    "oom-killer", "oom killer", "oom killed", "std::bad_alloc", "cannot allocate memory",
                                    "[errno 12]", "(errno 12)"});
  if (!line && !death.killed_by_deadline) {
    // The OOM killer's SIGKILL: the shell's "Killed", torchrun's "exitcode: -9", srun's 137.
    for (const auto& text : death.text) {
      const std::string lowered = Lowercase(Trim(text));
      if (lowered == "killed" || lowered.ends_with(": killed") || HasAny(lowered, {"exitcode: -9", "signal 9 (sigkill)"})) {
        line = std::string(Trim(text));
        break;
      }
    }
    if (!line && (death.signal == SIGKILL || death.exit_code == 128 + SIGKILL)) {
      line = death.signal ? "killed by SIGKILL, which the OOM killer sends" : "exit 137 (128 + SIGKILL, which the OOM killer sends)";
    }
  }
  if (!line) return std::nullopt;
  std::string limit;
  if (limits.memory_max_bytes && *limits.memory_max_bytes >= 0) {
    limit = "the job's cgroup memory.max is " + BinarySize(*limits.memory_max_bytes);
  }
  return Make(Resource::kMemory, "memory-exhausted", "memory", *line, limit,
              "read the node's kernel log (dmesg | grep -i oom) and the job's memory limit (--mem, the cgroup's "
              "memory.max); give the job more memory or lower the batch size, DataLoader workers or ranks per node");
}

std::optional<Exhaustion> Disk(const WorkerDeath& death) {
  if (auto line = LineWith(death.text, {"disk quota exceeded", "edquot", "[errno 122]", "(errno 122)"})) {
    const std::string path = PathIn(*line);
    return Make(Resource::kDiskQuota, "storage-quota", path.empty() ? "the disk quota" : "the disk quota on " + path,
                *line, "", "raise the quota (quota -s; lfs quota on Lustre) or clean up old files");
  }
  if (auto line = LineWith(death.text, kNoSpace)) {
    const std::string path = PathIn(*line);
    return Make(Resource::kDisk, "storage-full", path.empty() ? "disk space" : "disk space on " + path, *line, "",
                "free space on the filesystem " + (path.empty() ? std::string("the job writes to") : "of " + path) +
                    " (df -h), or point the job's output elsewhere");
  }
  return std::nullopt;
}

}  // namespace

std::optional<Exhaustion> ClassifyDeath(const WorkerDeath& death, const NodeLimits& limits) {
  // The most specific first: memlock's ENOMEM names verbs calls, /dev/shm's ENOSPC its files.
  if (auto found = LockedMemory(death, limits)) return found;
  if (auto found = SharedMemoryDeath(death, limits)) return found;
  if (auto found = OpenFiles(death, limits)) return found;
  if (auto found = Memory(death, limits)) return found;
  return Disk(death);
}

std::string DescribeExhaustion(const std::string& node, const Exhaustion& exhaustion) {
  return fmt::format("{}: {} ran out{}: \"{}\"; {}", node, exhaustion.resource_name,
                     exhaustion.limit.empty() ? std::string() : " (" + exhaustion.limit + ")", exhaustion.evidence,
                     exhaustion.fix);
}

std::string DependentSkip(const std::string& who, const Exhaustion& exhaustion, const std::string& reported_at) {
  return fmt::format("{} died of {} exhaustion{} ({}), so this check has nothing to judge; {} names it", who,
                     exhaustion.resource_name, exhaustion.limit.empty() ? std::string() : " (" + exhaustion.limit + ")",
                     exhaustion.code.code(), reported_at);
}

std::string BinarySize(long long bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0 || value == static_cast<double>(static_cast<long long>(value))) {
    return fmt::format("{} {}", static_cast<long long>(value), kUnits[unit]);
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

}  // namespace gpuconform::resource_limits
