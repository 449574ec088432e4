// Test helpers of the NvSwitch, Pcie and InfiniBand tests: the project's shared test support,
// plus evaluating these three suites against a snapshot.
#pragma once

#include "tests/support/test_support.h"

namespace gpuconform::topo_test {

using namespace ::gpuconform::test_support;

inline std::map<std::string, CheckResult> EvaluateTopologySuites(const std::string& snapshot_dir,
                                                                 const Profile& profile) {
  return EvaluateSuitesOnSnapshot(snapshot_dir, profile, {"NvSwitch", "Pcie", "InfiniBand"});
}

}  // namespace gpuconform::topo_test
