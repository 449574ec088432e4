// Test helpers of the NvSwitch, Pcie and InfiniBand tests: the project's shared test support,
// an H100 profile, evaluating these three suites against a snapshot,
// and the one way a broken snapshot fixture is judged (the topo-* and the gpu-* ones alike).
#pragma once

#include <ostream>
#include <set>

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

inline std::map<std::string, CheckResult> EvaluateTopologySuites(const std::string& snapshot_dir,
                                                                 const Profile& profile) {
  return EvaluateSuitesOnSnapshot(snapshot_dir, profile, {"NvSwitch", "Pcie", "InfiniBand"});
}

// Every finding's message, one a line, for assertion messages.
inline std::string Messages(const CheckResult& result) {
  std::string out;
  for (const auto& finding : result.findings) out += finding.message + "\n";
  return out;
}

// A snapshot fixture of one node (hgx-node-01) and the one check it must fail.
struct FixtureCase {
  std::string snapshot;
  std::string failing;  // "Suite.Check", or empty for the healthy node
  std::string entity;
  std::string needle;
};

// Named in test listings by its snapshot, not as a byte dump.
inline void PrintTo(const FixtureCase& fixture, std::ostream* os) { *os << fixture.snapshot; }

// The test name of a case: its snapshot without `prefix` ("topo-", "gpu-"), '-' as '_'.
inline std::string FixtureCaseName(const FixtureCase& fixture, const std::string& prefix) {
  std::string name = fixture.snapshot.substr(prefix.size());
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

// Every check of `results` (only those named in `judged`, when it names any) ran on hgx-node-01
// and passed, but `fixture.failing`, which failed with one finding about `fixture.entity` whose
// message names the node and holds `fixture.needle`.
inline void ExpectFailsExactlyItsCheck(const FixtureCase& fixture, const std::map<std::string, CheckResult>& results,
                                       const std::set<std::string>& judged = {}) {
  for (const auto& [name, result] : results) {
    if (!judged.empty() && !judged.count(name)) continue;
    EXPECT_EQ(result.node, "hgx-node-01");
    if (name != fixture.failing) {
      EXPECT_EQ(result.verdict, Verdict::kPass) << fixture.snapshot << ": " << name << "\n" << Messages(result);
      continue;
    }
    ASSERT_EQ(result.verdict, Verdict::kFail) << fixture.snapshot << ": " << name;
    ASSERT_EQ(result.findings.size(), 1u) << Messages(result);
    EXPECT_EQ(result.findings[0].entity, fixture.entity);
    EXPECT_EQ(result.findings[0].message.rfind("hgx-node-01: ", 0), 0u);
    EXPECT_NE(result.findings[0].message.find(fixture.needle), std::string::npos) << result.findings[0].message;
  }
}

// Under the `local` profile (no GPUs, no InfiniBand) every check skips, and its first finding says
// what the profile lacks.
inline void ExpectEveryCheckSkipsSayingProfileHasNo(const std::map<std::string, CheckResult>& results) {
  for (const auto& [name, result] : results) {
    EXPECT_EQ(result.verdict, Verdict::kSkip) << name;
    ASSERT_FALSE(result.findings.empty());
    EXPECT_NE(result.findings[0].message.find("profile local has no"), std::string::npos) << result.findings[0].message;
  }
}

}  // namespace gpuconform::topo_test
