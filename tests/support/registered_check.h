// Test-only: a registered suite's checks judged the way the harness judges them, on raw outputs
// a test builds: each check skipped where its not_applicable says so, else its judge (or the
// suite's evaluate), every case stamped with suite, check and node. Header-only.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/profile.h"
#include "harness/suite_registry.h"

namespace gpuconform::test_support {

inline const SuiteDefinition& RegisteredSuite(const std::string& suite_name) {
  for (const auto* suite : SuiteRegistry::Instance().Suites()) {
    if (suite->name == suite_name) return *suite;
  }
  ADD_FAILURE() << "no suite " << suite_name << " is registered";
  static const SuiteDefinition kNone;
  return kNone;
}

// The cases of the suite's checks named in `checks` (all of them when empty) on `raw`, in the
// suite's order.
inline std::vector<CheckResult> JudgeRegistered(const std::string& suite_name, const ClusterRaw& raw,
                                                const Profile& profile, const std::vector<std::string>& checks = {},
                                                const std::vector<RankInfo>& ranks = {}) {
  auto wanted = [&](const std::string& check) {
    return checks.empty() || std::find(checks.begin(), checks.end(), check) != checks.end();
  };
  SuiteDefinition suite = RegisteredSuite(suite_name);
  if (!suite.evaluate) std::erase_if(suite.checks, [&](const CheckDefinition& check) { return !wanted(check.name); });
  auto results = EvaluateSuite(suite, SuiteContext{raw, profile, ranks, false, ""});
  std::erase_if(results, [&](const CheckResult& result) { return !wanted(result.check); });
  return results;
}

// The one case of a cluster check, or of a per-node check on `raw`'s only node.
inline CheckResult JudgeRegisteredCheck(const std::string& suite_name, const std::string& check, const ClusterRaw& raw,
                                        const Profile& profile) {
  const auto results = JudgeRegistered(suite_name, raw, profile, {check});
  EXPECT_EQ(results.size(), 1u) << suite_name << "." << check;
  return results.empty() ? CheckResult{} : results.front();
}

}  // namespace gpuconform::test_support
