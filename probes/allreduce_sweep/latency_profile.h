// The profile's `allreduce_latency:` section: ceilings on the time of one small allreduce,
// each for a node count and a message size (8 B to 64 KiB), with its source. Small messages
// are latency-bound: a fabric that fell back to TCP, a NIC with interrupt moderation set for
// bulk traffic, or a path through the management network multiplies their time while the
// large sizes' busbw can still pass. On GPU profiles the ceilings are NCCL figures (as the
// allreduce floors are); on CPU-only profiles, MPI host figures. Absent: nothing is judged.
#pragma once

#include <string>
#include <vector>

namespace gpuconform::allreduce_sweep {

inline constexpr long long kSmallestLatencyBytes = 8;
inline constexpr long long kLargestLatencyBytes = 64 * 1024;

struct LatencyCeiling {
  int nodes = 1;
  long long size_bytes = 0;  // kSmallestLatencyBytes..kLargestLatencyBytes
  double time_ceiling_us = 0;
  std::string source;
};

struct LatencyCeilings {
  static constexpr char kKey[] = "allreduce_latency";
  std::vector<LatencyCeiling> ceilings;
};

// The latency band every allreduce sweep starts with: 8 B to 64 KiB in steps of 8 (8, 64, 512,
// 4096, 32768, 65536): the range nccl-tests' all_reduce_perf -b 8 covers, in six sizes rather
// than fourteen, since a sweep on a lossy fabric pays for each one.
std::vector<long long> LatencySizes();

}  // namespace gpuconform::allreduce_sweep
