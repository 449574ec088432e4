// The profile's `slurm:` section, owned by Slurm's probes (the allocation probe and srun
// launches ask for its GPUs per node) and the SlurmGres and SlurmNodes suites that judge the
// controller's nodes by it: the GPU GRES a node must offer. Absent: those checks are skipped.
#pragma once

#include <string>

namespace gpuconform::slurm {

struct SlurmExpectation {
  static constexpr char kKey[] = "slurm";
  std::string gres;  // e.g. "gpu:8" or "gpu:h100:8"
  int gpus_per_node = 0;  // the count inside gres
  std::string partition;  // empty: the default partition
  std::string source;
};

}  // namespace gpuconform::slurm
