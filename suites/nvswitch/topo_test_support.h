// Test helpers of the NvSwitch, Pcie and InfiniBand tests: the project's shared test support,
// an H100 profile, a one-finding assertion, and evaluating these three suites against a snapshot.
#pragma once

#include "tests/support/test_support.h"

namespace gpuconform::topo_test {

using namespace ::gpuconform::test_support;

// The h100-sxm-8 expectations the unit tests judge against, without the profile file's sources.
inline Profile H100() {
  Profile p;
  p.name = "h100-sxm-8";
  p.gpu = GpuExpectation{true, 8, "H100", "datasheet"};
  p.nvlink = NvlinkExpectation{18, 25, 335, "datasheet"};
  return p;
}

// The check failed with exactly one finding, about `entity`, whose message starts with `start`.
inline void ExpectOnlyFinding(const CheckResult& result, const std::string& entity, const std::string& start) {
  ASSERT_EQ(result.verdict, Verdict::kFail) << result.TestName();
  ASSERT_EQ(result.findings.size(), 1u) << result.TestName();
  EXPECT_EQ(result.findings[0].entity, entity);
  EXPECT_EQ(result.findings[0].message.rfind(start, 0), 0u) << result.findings[0].message;
}

inline std::map<std::string, CheckResult> EvaluateTopologySuites(const std::string& snapshot_dir,
                                                                 const Profile& profile) {
  return EvaluateSuitesOnSnapshot(snapshot_dir, profile, {"NvSwitch", "Pcie", "InfiniBand"});
}

}  // namespace gpuconform::topo_test
