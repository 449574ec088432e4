// A node's resource limits, measured where its workers run (the probe that starts them, in the
// same job step: the same /dev/shm mount, rlimits and cgroup), and written as one record line
//   limits shm_bytes=N shm_free_bytes=N open_files=N memlock_bytes=N memory_max_bytes=N
// (-1: unlimited; a field left out: not measured), so a death the classifier names
// (resource_exhaustion.h) carries the limit that caused it, live and from a snapshot alike.
#pragma once

#include <string>

#include "harness/util/record_lines.h"
#include "probes/resource_limits/resource_exhaustion.h"

namespace gpuconform::resource_limits {

inline constexpr char kLimitsRecord[] = "limits";

// statvfs("/dev/shm"), getrlimit(RLIMIT_NOFILE, RLIMIT_MEMLOCK) and the cgroup's memory.max.
NodeLimits MeasureNodeLimits();

// "limits shm_bytes=65536 ..." without the newline. Pure.
std::string LimitsRecordLine(const NodeLimits& limits);
// The fields of a `limits` record; a field that is not a whole number is left unmeasured. Pure.
NodeLimits LimitsFromRecord(const RecordLine& record);

}  // namespace gpuconform::resource_limits
