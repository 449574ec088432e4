// Judging a registered suite's checks as a run judges them, on outputs a test makes: a
// ClusterRaw of named nodes and their probe outputs, and the cases the suite's checks give on
// it under a profile (each check's applicability, its reads, its judgement, and the stamp that
// names each case), by the run's own evaluator. For tests of what lives in a suite's glue: a
// skip before any read, a read that fails, a check judged from another check's facts.
// Header-only.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/profile.h"
#include "harness/core/suite_registry.h"

namespace gpuconform::test_support {

// node -> probe id -> output
using NodeOutputs = std::map<std::string, std::map<std::string, RawOutput>>;

// The raw outputs of a run on these nodes (each node in `outputs`, with what it holds).
inline ClusterRaw RawOf(const NodeOutputs& outputs) {
  ClusterRaw raw;
  for (const auto& [node, by_probe] : outputs) {
    raw.nodes.push_back(node);
    raw.node[node] = by_probe;
  }
  return raw;
}

// A probe's output as a snapshot holds it: ok, with its text and the file it came from.
inline RawOutput OkOutput(const std::string& text, const std::string& origin) {
  return {ProbeStatus::kOk, text, origin, ""};
}

inline const SuiteDefinition& RegisteredSuite(const std::string& suite_name) {
  for (const auto* suite : SuiteRegistry::Instance().Suites()) {
    if (suite->name == suite_name) return *suite;
  }
  ADD_FAILURE() << "no suite " << suite_name << " is registered";
  static const SuiteDefinition kNone;
  return kNone;
}

// One suite judged by the run's evaluator (EvaluateSuites on a one-suite list), on a copy of
// the context's outputs: evaluation releases each node's outputs as it judges the node, and a
// test may judge the same outputs again.
inline std::vector<CheckResult> EvaluateOneSuite(const SuiteDefinition& suite, const SuiteContext& context) {
  const ClusterRaw raw = context.raw;
  const SuiteContext copy{raw,           context.profile, context.ranks,          context.live,
                          context.world_problem, context.options, context.counter_history};
  return EvaluateSuites({&suite}, copy);
}

// The cases of the suite's checks named in `checks` (all of them when empty) on `raw`, in the
// suite's order. Only those checks are judged.
inline std::vector<CheckResult> JudgeRegistered(const std::string& suite_name, const ClusterRaw& raw,
                                                const Profile& profile, const std::vector<std::string>& checks = {},
                                                const std::vector<RankInfo>& ranks = {}) {
  auto wanted = [&](const std::string& check) {
    return checks.empty() || std::find(checks.begin(), checks.end(), check) != checks.end();
  };
  SuiteDefinition suite = RegisteredSuite(suite_name);
  std::erase_if(suite.checks, [&](const CheckDefinition& check) { return !wanted(check.name); });
  return EvaluateOneSuite(suite, SuiteContext{raw, profile, ranks, false, ""});
}

// The cases one check gives on `raw` (one per node for a per-node check, one for a cluster
// check); at least one.
inline std::vector<CheckResult> JudgeRegistered(const std::string& suite, const std::string& check,
                                                const ClusterRaw& raw, const Profile& profile) {
  auto cases = JudgeRegistered(suite, raw, profile, {check});
  EXPECT_FALSE(cases.empty()) << suite << "." << check << " gave no case";
  return cases;
}

// The one case of a cluster check, or of a per-node check on `raw`'s only node.
inline CheckResult JudgeRegisteredOnce(const std::string& suite, const std::string& check, const ClusterRaw& raw,
                                       const Profile& profile) {
  const auto cases = JudgeRegistered(suite, raw, profile, {check});
  EXPECT_EQ(cases.size(), 1u) << suite << "." << check;
  return cases.empty() ? CheckResult{} : cases.front();
}

}  // namespace gpuconform::test_support
