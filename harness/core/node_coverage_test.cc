// Nodes outside the run: not covered rather than errors, unless every node is required.
#include "harness/core/node_coverage.h"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

std::vector<CheckResult> TwoOfThree() {
  return {Passed("SlurmGres", "GresMatchesHardware", "node1"), Passed("SlurmGres", "GresMatchesHardware", "node2"),
          Errored("SlurmGres", "GresMatchesHardware", "node3", "no-gpu-count", "node3: the GPUs could not be counted"),
          Failed("SlurmNodes", "NodeUsable", "node3", {{"node-unusable", "node3", "node3 is DOWN"}}),
          Passed("Munge", "KeyIdenticalOnAllNodes")};
}

TEST(NodeCoverage, ErrorsOfNodesWithoutATaskBecomeNotCovered) {
  const CoverageSplit split = SplitByCoverage(TwoOfThree(), {"node1", "node2"}, false);
  ASSERT_EQ(split.results.size(), 4u);
  for (const auto& result : split.results) EXPECT_NE(result.verdict, Verdict::kError) << result.TestName();
  EXPECT_EQ(split.coverage.not_covered, std::vector<std::string>{"node3"});
  EXPECT_NEAR(split.coverage.Fraction(), 2.0 / 3.0, 1e-9);
  EXPECT_EQ(CoverageLine(split.coverage, false).rfind("Not covered: node3 (1 of 3 nodes", 0), 0u)
      << CoverageLine(split.coverage, false);
}

TEST(NodeCoverage, AFailureJudgedFromTheControllerStays) {
  const CoverageSplit split = SplitByCoverage(TwoOfThree(), {"node1", "node2"}, false);
  bool kept = false;
  for (const auto& result : split.results) kept |= result.TestName() == "SlurmNodes.NodeUsable/node3";
  EXPECT_TRUE(kept);
}

TEST(NodeCoverage, RequireAllNodesKeepsTheErrors) {
  const CoverageSplit split = SplitByCoverage(TwoOfThree(), {"node1", "node2"}, true);
  EXPECT_EQ(split.results.size(), 5u);
  EXPECT_EQ(split.coverage.not_covered, std::vector<std::string>{"node3"});
  EXPECT_NE(CoverageLine(split.coverage, true).find("--require-all-nodes makes their node-local checks errors"),
            std::string::npos);
}

TEST(NodeCoverage, FullCoverageSaysNothing) {
  const CoverageSplit split = SplitByCoverage(TwoOfThree(), {"node1", "node2", "node3"}, false);
  EXPECT_EQ(split.results.size(), 5u);
  EXPECT_TRUE(split.coverage.not_covered.empty());
  EXPECT_EQ(split.coverage.Fraction(), 1.0);
  EXPECT_EQ(CoverageLine(split.coverage, false), "");
}

}  // namespace
}  // namespace gpuconform
