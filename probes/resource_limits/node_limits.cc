#include "probes/resource_limits/node_limits.h"

#include <sys/resource.h>
#include <sys/statvfs.h>

#include <utility>
#include <vector>

#include "harness/util/read_file.h"
#include "harness/util/text_util.h"

namespace gpuconform::resource_limits {

namespace {

std::optional<long long> Rlimit(int resource) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0) return std::nullopt;
  if (limit.rlim_cur == RLIM_INFINITY) return -1;
  return static_cast<long long>(limit.rlim_cur);
}

// cgroup v2: the process's cgroup from /proc/self/cgroup ("0::/path"), its memory.max.
std::optional<long long> CgroupMemoryMax() {
  const auto cgroup = ReadTextFile("/proc/self/cgroup", "cgroup", 1 << 16);
  if (!cgroup) return std::nullopt;
  for (const auto line : SplitLines(*cgroup)) {
    if (!line.starts_with("0::")) continue;
    const auto max = ReadTextFile("/sys/fs/cgroup" + std::string(line.substr(3)) + "/memory.max", "memory.max", 256);
    if (!max) return std::nullopt;
    const std::string value(Trim(*max));
    if (value == "max") return -1;
    return WholeInteger(value);
  }
  return std::nullopt;
}

}  // namespace

NodeLimits MeasureNodeLimits() {
  NodeLimits limits;
  struct statvfs shm {};
  if (::statvfs("/dev/shm", &shm) == 0) {
    limits.shm_bytes = static_cast<long long>(shm.f_blocks) * static_cast<long long>(shm.f_frsize);
    limits.shm_free_bytes = static_cast<long long>(shm.f_bavail) * static_cast<long long>(shm.f_frsize);
  }
  limits.open_files = Rlimit(RLIMIT_NOFILE);
  limits.memlock_bytes = Rlimit(RLIMIT_MEMLOCK);
  limits.memory_max_bytes = CgroupMemoryMax();
  return limits;
}

std::string LimitsRecordLine(const NodeLimits& limits) {
  std::vector<std::pair<std::string, std::string>> fields;
  const auto add = [&fields](const char* key, const std::optional<long long>& value) {
    if (value) fields.emplace_back(key, std::to_string(*value));
  };
  add("memlock_bytes", limits.memlock_bytes);
  add("memory_max_bytes", limits.memory_max_bytes);
  add("open_files", limits.open_files);
  add("shm_bytes", limits.shm_bytes);
  add("shm_free_bytes", limits.shm_free_bytes);
  return FormatRecord(kLimitsRecord, fields);
}

NodeLimits LimitsFromRecord(const RecordLine& record) {
  const auto number = [&record](const char* key) -> std::optional<long long> {
    const std::string* value = record.Find(key);
    return value ? WholeInteger(*value) : std::nullopt;
  };
  return {number("shm_bytes"), number("shm_free_bytes"), number("open_files"), number("memlock_bytes"),
          number("memory_max_bytes")};
}

}  // namespace gpuconform::resource_limits
