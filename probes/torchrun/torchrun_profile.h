// The profile's `torchrun:` section, owned by the Torchrun probe that reads it (and read by the
// Torchrun suite's checks): the launch path training jobs use and the floors it is judged
// against. Absent: the suite is skipped and nothing is launched.
#pragma once

#include <string>

namespace gpuconform::torchrun {

// The Torchrun suite: the launch path training jobs use (srun torchrun ... one per node).
struct TorchrunExpectation {
  static constexpr char kKey[] = "torchrun";
  std::string command = "torchrun";  // the site's launcher; GPUCONFORM_TORCHRUN wins over it
  int nproc_per_node = 0;            // workers per node; 0: gpu.count_per_node, else 2 on a CPU profile
  std::string backend;               // "nccl" or "gloo"; empty: nccl where the profile expects GPUs, else gloo
  int timeout_s = 60;                // the whole launch, rendezvous included; past it the launchers are killed
  long long allreduce_size_bytes = 16LL << 20;
  double busbw_floor_gb_per_s = 0;      // the backend's allreduce busbw floor; 0 = recorded, not judged
  double dataload_floor_mb_per_s = 0;   // DataLoader read throughput per rank; 0 = recorded, not judged
  std::string source;
};

}  // namespace gpuconform::torchrun
