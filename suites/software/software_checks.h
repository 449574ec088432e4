// Software suite checks: version skew across nodes. After an image change, a node that
// kept the old kernel, driver, NCCL or Slurm is a classic cause of hangs and slow jobs that
// no single-node test sees. Pure: every node's reading of a component (a version, not
// installed, or why it could not be read; probes/versions/versions_facts.h) + profile in, one
// cluster-wide judgement out. The readings are taken even where the check does not apply, so
// that a skipped check still records each node's version.
#pragma once

#include <map>
#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/versions/versions_facts.h"
#include "suites/software/software_profile.h"

namespace gpuconform::software {

inline constexpr char kSuite[] = "Software";

using versions::VersionReading;

struct Component {
  std::string key;        // profile name: "kernel", "driver", "cuda", "nccl", "slurm", "munge", "mpi", "gpuconform"
  std::string label;      // in messages: "kernel", "NVIDIA driver", ...
  std::string check;      // the check's name: "KernelVersionIdentical"
  bool needs_gpu = false;  // not applicable where the profile has no GPUs
  std::string fix;        // what an operator does about skew
};

// Whether the profile judges `key` (listed in software.identical_across_nodes, or pinned);
// otherwise its versions are recorded only. The firmware checks ask the same.
bool JudgedByProfile(const Profile& profile, const std::string& key);

// One cluster-wide case: every node runs the same version. Missing on some nodes while
// present on others is skew too; unreadable everywhere is an error.
CheckResult CheckVersionsIdentical(const Component& component, const std::map<std::string, VersionReading>& readings,
                                   const Profile& profile);

}  // namespace gpuconform::software
