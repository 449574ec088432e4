// The pairwise pass's remeasurement: a pair slow once because the shared machine was busy is
// measured again and recovers; a slow link stays slow; failed pairs are not remeasured.
#include <gtest/gtest.h>

#include "probes/mpi_sweep/pair_results.h"

namespace gpuconform::mpi_sweep {
namespace {

TEST(PairResults, OnlyCompletedPairsBelowHalfTheFastestAreMeasuredAgain) {
  const std::vector<PairResult> first = {{"node1", "node2", 8 << 20, 0.40},
                                         {"node2", "node3", 8 << 20, 0.44},
                                         {"node3", "node1", 8 << 20, 0.18},
                                         {"node3", "node4", 8 << 20, 0, "its step timed out"}};
  const auto again = RemeasuredPairs(first);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0], (std::pair<std::string, std::string>{"node3", "node1"}));
  EXPECT_TRUE(RemeasuredPairs({{"a", "b", 1, 0.4}, {"b", "c", 1, 0.3}, {"c", "a", 1, 0.35}}).empty());
}

TEST(PairResults, TheFasterOfTwoMeasurementsStands) {
  std::vector<PairResult> pairs = {{"node1", "node2", 8 << 20, 0.40}, {"node3", "node1", 8 << 20, 0.18}};
  MergeRemeasured(pairs, {"node3", "node1", 8 << 20, 0.41});  // busy the first time
  EXPECT_DOUBLE_EQ(pairs[1].busbw_gb_per_s, 0.41);
  MergeRemeasured(pairs, {"node1", "node2", 8 << 20, 0.10});  // slower now: the first stands
  EXPECT_DOUBLE_EQ(pairs[0].busbw_gb_per_s, 0.40);
  MergeRemeasured(pairs, {"node3", "node1", 8 << 20, 0, "its step timed out"});
  EXPECT_DOUBLE_EQ(pairs[1].busbw_gb_per_s, 0.41) << "a failed remeasurement changes nothing";
  // A slow link is slow both times, and is then blamed as before.
  std::vector<PairResult> link = {{"a", "b", 1, 0.4}, {"b", "c", 1, 0.42}, {"c", "a", 1, 0.05}};
  MergeRemeasured(link, {"c", "a", 1, 0.06});
  EXPECT_TRUE(IsSlow(link[2], Fastest(link)));
}

}  // namespace
}  // namespace gpuconform::mpi_sweep
