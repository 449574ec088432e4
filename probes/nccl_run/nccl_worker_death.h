// How one node's NCCL worker (nccl_worker.h) ended, as the one rule on deaths of a node's
// resource (probes/resource_limits) reads it: the probe that started it records it in the run's
// table (cluster/nccl-allreduce.txt) with the node's limits, in the lines of
// resource_limits/death_records.h, and AllreduceBandwidth names the resource.
// NCCL says why it failed in its log (NCCL_DEBUG_FILE), not on stderr:
//   node3:2211:2230 [0] NCCL WARN Call to posix_fallocate failed : No space left on device
//   node3:2211:2230 [0] NCCL WARN Call to ibv_create_cq failed with error Cannot allocate memory
// so a death's words are the log's NCCL WARN lines, then the worker's stderr (a CUDA or libc
// message), then the reason of its "error" line. A worker that died by itself carries its exit
// status or signal (SIGBUS of a /dev/shm page, the OOM killer's SIGKILL); one the probe killed
// (at a deadline, or after its error line) carries none, so the probe's SIGKILL is never read as
// the OOM killer's, and one the probe killed without an error line is no death at all (it was
// waiting on a node that died).
// Contract: pure.
#pragma once

#include <optional>
#include <string>

#include "probes/resource_limits/resource_exhaustion.h"

namespace gpuconform::nccl_run {

// How the probe saw its worker end.
struct WorkerEnd {
  bool killed_by_probe = false;    // the probe's SIGKILL ended it
  std::optional<int> exit_code;    // where it exited by itself
  std::optional<int> signal;       // where a signal not the probe's ended it
  std::string error_reason;        // the reason of its "error" line, where it sent one
};

// The worker's death, or nullopt where it ended as asked ("quit") or only because the probe
// stopped waiting for it. `worker_stderr` and `node_log` are what it left in its work directory.
std::optional<resource_limits::WorkerDeath> NcclWorkerDeath(const WorkerEnd& end, const std::string& worker_stderr,
                                                            const std::string& node_log);

}  // namespace gpuconform::nccl_run
