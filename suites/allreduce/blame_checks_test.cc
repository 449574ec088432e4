#include <gtest/gtest.h>

#include "suites/allreduce/blame.h"
#include "tests/support/test_support.h"

namespace gpuconform::allreduce {
namespace {

using test_support::ExpectOnlyFinding;

TEST(Blame, ParsesThePairLinesOfTheProbe) {
  const auto pairs = ParsePairResults(
      "# gpuconform MPI_Allreduce\n     8388608  2097152 float sum -1 1.0 0.1 0.1 0\n"
      "# pair node1 node2 8388608 busbw 0.812\n# pair node2 node3 8388608 busbw 0.031\n# pair broken\n");
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1].node_a, "node2");
  EXPECT_EQ(pairs[1].node_b, "node3");
  EXPECT_DOUBLE_EQ(pairs[1].busbw_gb_per_s, 0.031);
}

TEST(Blame, EvenPairsConform) {
  const auto result = CheckNoSlowNode({{"node1", "node2", 8, 0.8}, {"node2", "node3", 8, 0.6}, {"node3", "node1", 8, 0.7}},
                                      {});
  EXPECT_EQ(result.verdict, Verdict::kPass);
  EXPECT_EQ(result.measurements.size(), 3u);
}

TEST(Blame, TheNodeInEverySlowPairIsNamed) {
  const auto result = CheckNoSlowNode(
      {{"node1", "node2", 8, 0.8}, {"node2", "node3", 8, 0.03}, {"node3", "node1", 8, 0.02}}, {});
  ExpectOnlyFinding(result, "node3",
                    "node3: every pair it is in is slow (node2+node3 0.030 GB/s, "
                    "node3+node1 0.020 GB/s) against 0.800 GB/s");
}

TEST(Blame, SlowPairsWithoutACommonNodeAreNamedAsLinks) {
  const auto result = CheckNoSlowNode({{"n1", "n2", 8, 0.01}, {"n2", "n3", 8, 0.8}, {"n3", "n4", 8, 0.01}, {"n4", "n1", 8, 0.8}},
                                      {});
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_EQ(result.findings[0].code, "slow-link");
  EXPECT_EQ(result.findings[0].entity, "n1+n2");
}

// Five nodes, node2 and node4 slow: node3, between them, has only slow pairs in the ring.
std::vector<PairResult> RingWithTwoSlowNodes() {
  return {{"n1", "n2", 8, 0.02}, {"n2", "n3", 8, 0.02}, {"n3", "n4", 8, 0.02}, {"n4", "n5", 8, 0.02}, {"n5", "n1", 8, 0.8}};
}

TEST(Blame, SecondPassPairsEverySuspectWithAKnownGoodNode) {
  const auto confirm = ConfirmationPairs(RingWithTwoSlowNodes());
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(confirm, (Pairs{{"n2", "n5"}, {"n3", "n1"}, {"n4", "n1"}})) << "n1+n2 and n4+n5 were measured already";
  EXPECT_TRUE(ConfirmationPairs({{"a", "b", 8, 0.8}, {"b", "c", 8, 0.7}, {"c", "a", 8, 0.8}}).empty()) << "nothing slow";
}

TEST(Blame, SecondPassClearsTheHealthyNodeBetweenTwoSlowOnes) {
  auto pairs = RingWithTwoSlowNodes();
  EXPECT_EQ(CheckNoSlowNode(pairs, {}).findings.size(), 3u) << "the ring alone blames n2, n3 and n4";
  pairs.push_back({"n2", "n5", 8, 0.02});
  pairs.push_back({"n3", "n1", 8, 0.8});  // n3 is fine with a good partner
  pairs.push_back({"n4", "n1", 8, 0.02});
  const auto result = CheckNoSlowNode(pairs, {});
  ASSERT_EQ(result.verdict, Verdict::kFail);
  std::vector<std::string> named;
  for (const auto& finding : result.findings) named.push_back(finding.code.str() + ":" + finding.entity);
  EXPECT_EQ(named, (std::vector<std::string>{"slow-node:n2", "slow-node:n4"}));
}

TEST(Blame, TwoNodesCannotBeCompared) {
  EXPECT_EQ(CheckNoSlowNode({{"a", "b", 8, 0.1}}, {}).verdict, Verdict::kSkip);
}

// The reachability gate left node3 out: a failure that names it and the pair, even though the
// two nodes that were measured make no pairs to compare.
TEST(Blame, ANodeTheGateLeftOutFailsNamingThePair) {
  const auto excluded = ParseExcludedLines(
      "# gpuconform MPI_Allreduce\n# excluded node3 node1 cannot connect to node3 at 10.20.0.3:4000 (No route to host)\n");
  ASSERT_EQ(excluded.size(), 1u);
  const auto result = CheckNoSlowNode({}, excluded);
  ExpectOnlyFinding(result, "node3",
                    "node3: left out of the MPI sweep, which ran on the other nodes: node1 cannot connect to node3 at "
                    "10.20.0.3:4000 (No route to host)");
  EXPECT_EQ(result.findings[0].code, "fabric-unreachable");
}

TEST(Blame, ALeftOutNodeAndASlowNodeAreBothNamed) {
  const auto result = CheckNoSlowNode({{"n1", "n2", 8, 0.8}, {"n2", "n3", 8, 0.03}, {"n3", "n1", 8, 0.02}},
                                      {{"n4", "n1 cannot connect to n4"}});
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_EQ(result.findings[0].entity, "n4");
  EXPECT_EQ(result.findings[1].entity, "n3");
}

// The sweep stalled (node2's link drops traffic); the blame pass measured each pair alone and
// the pairs with node2 did not complete: node2 is named, with what each pair's step said.
TEST(Blame, ANodeInEveryFailedPairIsNamed) {
  const auto pairs = ParsePairResults(
      "# pair-failed node1 node2 1048576 its step ended with exit status 3; it said: node1: MPI_Allreduce stalled\n"
      "# pair-failed node2 node3 1048576 its step did not finish within 55 s and was killed\n"
      "# pair node3 node1 1048576 busbw 0.700\n");
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[0].failure, "its step ended with exit status 3; it said: node1: MPI_Allreduce stalled");
  EXPECT_TRUE(pairs[2].failure.empty());
  const auto result = CheckNoSlowNode(pairs, {});
  ExpectOnlyFinding(result, "node2",
                    "node2: every pair it is in is slow (node1+node2 did not complete (its step ended with exit status 3");
  EXPECT_EQ(result.findings[0].code, "slow-node");
  EXPECT_EQ(result.measurements.size(), 1u) << "only the pair that completed is a measurement";
}

TEST(Blame, PairLinesReadBack) {
  const PairResult measured{"a", "b", 8, 0.5, ""};
  const PairResult failed{"b", "c", 8, 0, "it hung\nthen died"};
  const auto back = ParsePairResults(PairLine(measured) + PairLine(failed));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_DOUBLE_EQ(back[0].busbw_gb_per_s, 0.5);
  EXPECT_EQ(back[1].failure, "it hung then died");
}

}  // namespace
// The profile's fabric.slow_pair_fraction decides what is slow: on shared cores a healthy pair
// can run at a third of another; a lossy or shaped link runs at a tenth or less.
TEST(Blame, TheProfilesSlowPairFractionDecides) {
  const std::vector<PairResult> pairs = {{"node1", "node2", 8, 0.407}, {"node2", "node3", 8, 0.511},
                                         {"node3", "node1", 8, 0.158}};
  EXPECT_EQ(CheckNoSlowNode(pairs, {}).verdict, Verdict::kFail) << "below half the fastest";
  const auto loose = CheckNoSlowNode(pairs, {}, 0.2);
  EXPECT_EQ(loose.verdict, Verdict::kPass);
  EXPECT_NE(loose.measurements.at(0).threshold.find("0.2 x the fastest pair"), std::string::npos);
  EXPECT_EQ(CheckNoSlowNode({{"node1", "node2", 8, 0.407}, {"node2", "node3", 8, 0.511}, {"node3", "node1", 8, 0.04}},
                            {}, 0.2)
                .verdict,
            Verdict::kFail);
}

}  // namespace gpuconform::allreduce
