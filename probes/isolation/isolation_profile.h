// The profile's `isolation:` section, owned by the isolation that follows a failing or
// below-floor collective (probes/mpi_sweep/mpi_isolation.h): the largest test it may run, in
// nodes, and the total time it may take. Absent: no cap, and kDefaultIsolationDeadlineS.
//   isolation:
//     node_cap: 64          # largest test; the screen runs in chunks of this many nodes
//     deadline_s: 900       # every round after the screen together; past it, what is known
//     source: why these numbers
#pragma once

#include <string>

namespace gpuconform::isolation {

// Ten minutes: the published adaptive search needs about 28 for five faults on 232 GPU nodes
// with 4-minute rounds; the MPI host path's rounds take seconds, so ten leaves room for
// 20 rounds on a slow fabric and keeps an acceptance run's total in bounds.
inline constexpr int kDefaultIsolationDeadlineS = 600;

struct IsolationLimits {
  static constexpr char kKey[] = "isolation";
  int node_cap = 0;  // 0: no cap
  int deadline_s = kDefaultIsolationDeadlineS;
  std::string source;
};

}  // namespace gpuconform::isolation
