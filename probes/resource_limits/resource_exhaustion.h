// Whether a worker or probe died of an exhausted resource of its node, from what it left: its
// exit status or signal and the text it printed (stderr, a traceback's last lines, an error
// record). One rule for every suite that starts workers (Torchrun, Checkpoint, the NCCL run,
// the MPI sweep): a death it classifies is the node's configuration, named with the resource,
// the limit the node measured (node_limits.h) and the fix, and the checks that depended on
// that worker skip, saying so, instead of failing with a code that points elsewhere.
//   /dev/shm      ENOSPC naming /dev/shm or PyTorch's shared-memory files, a bus error
//                 (SIGBUS, DataLoader "killed by signal: Bus error"), or ENOSPC naming no path
//                 on a node whose /dev/shm is small                          -> shm-exhausted
//   locked memory "Cannot allocate memory" from ibv_create_cq / ibv_reg_mr, RLIMIT_MEMLOCK
//                                                                            -> memlock-too-low
//   open files    "Too many open files" (EMFILE, ENFILE)                    -> open-files-exhausted
//   memory        the OOM killer (oom-kill, "Killed", SIGKILL not sent by gpuconform),
//                 "CUDA out of memory", MemoryError, std::bad_alloc, ENOMEM  -> memory-exhausted
//   disk          ENOSPC on another path                                     -> storage-full
//                 EDQUOT                                                     -> storage-quota
// Contract: pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/reason_code.h"

namespace gpuconform::resource_limits {

// What a node measured of its limits, where it could: the worker's own view (the probe that
// starts it measures in the same job step, so with the same mounts and rlimits).
struct NodeLimits {
  std::optional<long long> shm_bytes;        // /dev/shm's size (statvfs)
  std::optional<long long> shm_free_bytes;   // and what was free when measured
  std::optional<long long> open_files;       // RLIMIT_NOFILE, soft; -1 unlimited
  std::optional<long long> memlock_bytes;    // RLIMIT_MEMLOCK, soft; -1 unlimited
  std::optional<long long> memory_max_bytes; // the cgroup's memory.max; -1 max
};

// How a worker ended, and what it said.
struct WorkerDeath {
  std::optional<int> exit_code;  // 137 is 128 + SIGKILL, as a shell or srun reports it
  std::optional<int> signal;     // the signal that ended it, where known
  bool killed_by_deadline = false;  // gpuconform's own deadline killed it: no resource to blame
  std::vector<std::string> text;    // its stderr, traceback or error lines, any order
};

enum class Resource { kSharedMemory, kLockedMemory, kOpenFiles, kMemory, kDisk, kDiskQuota };

struct Exhaustion {
  Resource resource;
  ReasonCode code;
  std::string resource_name;  // "/dev/shm", "locked memory (RLIMIT_MEMLOCK)", ...
  std::string evidence;       // the line (or status) that shows it
  std::string limit;          // "/dev/shm is 64 KiB (60 KiB free)"; empty when not measured
  std::string fix;            // the operator's next step
};

// Below this a /dev/shm is the likely culprit of an ENOSPC that names no path (Docker's
// default /dev/shm is 64 MiB, and PyTorch's DataLoader workers pass every batch through it).
inline constexpr long long kSmallShmBytes = 512LL << 20;

std::optional<Exhaustion> ClassifyDeath(const WorkerDeath& death, const NodeLimits& limits);

// "node3: /dev/shm ran out (/dev/shm is 64 KiB (60 KiB free)): \"OSError: [Errno 28] No space
// left on device\"; <fix>"
std::string DescribeExhaustion(const std::string& node, const Exhaustion& exhaustion);

// Why a check that depended on the node's workers is skipped: "rank 4 on node3 died of
// /dev/shm exhaustion (/dev/shm is 64 KiB): <where it is reported>".
std::string DependentSkip(const std::string& who, const Exhaustion& exhaustion, const std::string& reported_at);

// 65536 -> "64 KiB"; 1536 -> "1.5 KiB"; a binary unit.
std::string BinarySize(long long bytes);

}  // namespace gpuconform::resource_limits
