// Judging a registered check as a run judges it, on outputs a test makes: a ClusterRaw of
// named nodes and their probe outputs, and the cases one check of a registered suite gives on
// it under a profile (the check's applicability, its reads, its judgement, and the stamp that
// names each case). For tests of what lives in a suite's glue: a skip before any read, a read
// that fails, a check judged from another check's facts. Header-only.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/profile.h"
#include "harness/suite_registry.h"

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

// The cases `check` of the registered suite `suite` gives on `raw` (one per node for a per-node
// check, one for a cluster check), in the run's order.
inline std::vector<CheckResult> JudgeRegistered(const std::string& suite, const std::string& check,
                                                const ClusterRaw& raw, const Profile& profile) {
  const SuiteDefinition* definition = nullptr;
  for (const auto* registered : SuiteRegistry::Instance().Suites()) {
    if (registered->name == suite) definition = registered;
  }
  EXPECT_NE(definition, nullptr) << suite << " is not registered";
  if (definition == nullptr) return {};
  const std::vector<RankInfo> ranks;
  std::vector<CheckResult> cases;
  for (auto& result : EvaluateSuite(*definition, SuiteContext{raw, profile, ranks, false, ""})) {
    if (result.check == check) cases.push_back(std::move(result));
  }
  EXPECT_FALSE(cases.empty()) << suite << "." << check << " gave no case";
  return cases;
}

// The one case `check` gives on the one node of `raw` (or the cluster).
inline CheckResult JudgeRegisteredOnce(const std::string& suite, const std::string& check, const ClusterRaw& raw,
                                       const Profile& profile) {
  auto cases = JudgeRegistered(suite, check, raw, profile);
  EXPECT_EQ(cases.size(), 1u) << suite << "." << check;
  return cases.empty() ? CheckResult{} : cases.front();
}

}  // namespace gpuconform::test_support
