// The MPI isolation's size and floors, and how one test is judged from its step.
#include "probes/mpi_sweep/isolation_tests.h"

#include <gtest/gtest.h>

namespace gpuconform::mpi_sweep {
namespace {

using allreduce_sweep::AllreduceFloor;
using isolation::Outcome;

constexpr long long kMiB = 1024 * 1024;

std::vector<AllreduceFloor> Floors() {
  return {{1, 64 * kMiB, 100, "intra-node"},
          {3, 8 * kMiB, 0.05, "three nodes"},
          {8, 8 * kMiB, 0.03, "eight nodes"},
          {8, 4 * kMiB, 0.02, "eight nodes, smaller"}};
}

nccl_tests::BandwidthTable Table(long long size, double busbw, long long wrong = 0) {
  nccl_tests::BandwidthTable table;
  table.rows.push_back({size, 100, busbw, busbw, true, wrong == 0, wrong});
  return table;
}

TEST(MpiIsolationScale, TheScreensFloorSetsTheSizeAndEachTestTakesTheNearestNodeCount) {
  const IsolationScale scale = IsolationScaleFor(Floors(), 8, 1 * kMiB);
  EXPECT_EQ(scale.size_bytes, 8 * kMiB) << "the largest size floored for 8 nodes";
  ASSERT_EQ(scale.floors.size(), 2u) << "both floors at 8 MiB, never the intra-node one";
  EXPECT_DOUBLE_EQ(scale.FloorFor(8)->busbw_floor_gb_per_s, 0.03);
  EXPECT_DOUBLE_EQ(scale.FloorFor(2)->busbw_floor_gb_per_s, 0.05) << "3 is nearest 2";
  EXPECT_DOUBLE_EQ(scale.FloorFor(6)->busbw_floor_gb_per_s, 0.03) << "8 is nearer 6 than 3";
  EXPECT_DOUBLE_EQ(scale.FloorFor(5)->busbw_floor_gb_per_s, 0.05) << "a tie goes to the smaller count";
  EXPECT_DOUBLE_EQ(scale.FloorFor(100)->busbw_floor_gb_per_s, 0.03);
}

TEST(MpiIsolationScale, WithoutFloorsTestsRunAtTheFallbackAndOnlyFailures) {
  const IsolationScale scale = IsolationScaleFor({}, 8, 8 * kMiB);
  EXPECT_EQ(scale.size_bytes, 8 * kMiB);
  EXPECT_FALSE(scale.FloorFor(8));
  EXPECT_EQ(JudgeIsolationTest(true, Table(8 * kMiB, 0.0001), scale, 8).outcome, Outcome::kPass);
  EXPECT_EQ(JudgeIsolationTest(false, std::nullopt, scale, 8).outcome, Outcome::kFail);
  const auto measure = MeasureOf(scale, 8);
  EXPECT_EQ(measure.floor_gb_per_s, 0);
  EXPECT_EQ(measure.collective, "MPI_Allreduce");
}

TEST(MpiIsolationScale, AnUnfittingAllocationUsesTheNearestCountsFloor) {
  const IsolationScale scale = IsolationScaleFor(Floors(), 12, 1 * kMiB);
  EXPECT_EQ(scale.size_bytes, 8 * kMiB);
  const auto measure = MeasureOf(scale, 12);
  EXPECT_DOUBLE_EQ(measure.floor_gb_per_s, 0.03);
  EXPECT_EQ(measure.floor_source, "eight nodes");
}

TEST(MpiIsolationTest, EachOutcomeFromItsStep) {
  const IsolationScale scale = IsolationScaleFor(Floors(), 8, 1 * kMiB);
  const auto pass = JudgeIsolationTest(true, Table(8 * kMiB, 0.2), scale, 4);
  EXPECT_EQ(pass.outcome, Outcome::kPass);
  EXPECT_DOUBLE_EQ(pass.busbw_gb_per_s, 0.2);
  const auto slow = JudgeIsolationTest(true, Table(8 * kMiB, 0.021), scale, 8);
  EXPECT_EQ(slow.outcome, Outcome::kSlow) << "0.021 < the 8-node floor of 0.03";
  EXPECT_DOUBLE_EQ(slow.busbw_gb_per_s, 0.021);
  EXPECT_EQ(JudgeIsolationTest(true, Table(8 * kMiB, 0.04), scale, 2).outcome, Outcome::kSlow)
      << "0.04 < the floor of the nearest count (3 nodes: 0.05)";
  EXPECT_EQ(JudgeIsolationTest(true, Table(8 * kMiB, 0.2, 12), scale, 4).outcome, Outcome::kFail) << "wrong elements";
  EXPECT_EQ(JudgeIsolationTest(true, Table(4 * kMiB, 0.2), scale, 4).outcome, Outcome::kFail)
      << "a table without the size did not measure it";
  EXPECT_EQ(JudgeIsolationTest(false, Table(8 * kMiB, 0.2), scale, 4).outcome, Outcome::kFail)
      << "a step that did not succeed fails whatever it printed";
}

}  // namespace
}  // namespace gpuconform::mpi_sweep
