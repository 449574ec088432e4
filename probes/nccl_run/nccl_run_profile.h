// The profile's sections for gpuconform's own NCCL run beyond allreduce, owned by the run
// (nccl_run_probe.h), which sizes itself by them, and read by the Collectives suite, which
// judges against them:
//   nccl_collectives:  the same list as `collectives:` (probes/mpi_sweep/collectives_profile.h:
//                      collective, nodes, size_bytes, busbw_floor_gb_per_s, source), for NCCL on
//                      GPU buffers; read by that section's own reader, so the two stay one format
//   nccl_init:         ceiling_s (the slowest node's ncclCommInitRank, seconds) and its source
// A sibling section rather than a backend key in `collectives:`: the two runs size and judge
// independently, and a profile can give one without the other. Absent: nothing measured or
// judged (the checks skip).
#pragma once

#include <string>
#include <vector>

#include "harness/core/profile.h"
#include "harness/core/run_options.h"
#include "probes/mpi_sweep/collectives_profile.h"

namespace gpuconform::nccl_run {

struct NcclCollectiveFloors {
  static constexpr char kKey[] = "nccl_collectives";
  std::vector<mpi_sweep::CollectiveFloor> floors;
};

struct NcclInitCeiling {
  static constexpr char kKey[] = "nccl_init";
  double ceiling_s = 0;
  std::string source;
};

// The collectives `nccl_collectives:` has floors for, in report order (collectives.h).
std::vector<std::string> NcclCollectivesWithFloors(const Profile* profile);

// The floors' sizes, ascending, each once, capped at 16 GiB (GPU memory, as the allreduce
// sweep) and by options.allreduce_max_bytes when positive.
std::vector<long long> NcclCollectiveSizes(const Profile* profile, const RunOptions& options);

}  // namespace gpuconform::nccl_run
