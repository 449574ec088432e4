// Software suite checks: version skew across nodes. After an image change, a node that
// kept the old kernel, driver, NCCL or Slurm is a classic cause of hangs and slow jobs that
// no single-node test sees. Pure: readings + profile in, CheckResult out.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "harness/profile.h"
#include "harness/verdict.h"

namespace gpuconform::software {

inline constexpr char kSuite[] = "Software";

struct Component {
  std::string key;        // profile name: "kernel", "driver", "cuda", "nccl", "slurm", "munge", "mpi", "gpuconform"
  std::string label;      // in messages: "kernel", "NVIDIA driver", ...
  std::string check;      // test name: "KernelVersionIdentical"
  bool needs_gpu = false;  // not applicable where the profile has no GPUs
  std::string fix;        // what an operator does about skew
};

// A node's version of one component, or why it could not be read.
struct VersionReading {
  std::optional<std::string> version;
  bool not_installed = false;  // the tool or library is absent (a fact, not an error)
  std::string problem;         // why there is no version, naming node and command or file
  ReasonCode reason{"unparseable"};  // the catalogue code of `problem`: the probe's status, or a parse failure
};

// One cluster-wide case: every node runs the same version. Missing on some nodes while
// present on others is skew too; unreadable everywhere is an error.
CheckResult CheckVersionsIdentical(const Component& component, const std::map<std::string, VersionReading>& readings,
                                   const Profile& profile);

}  // namespace gpuconform::software
