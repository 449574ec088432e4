// The collectives beyond allreduce: nccl-tests' busbw factor (n-1)/n, sizes rounded to a whole
// block per rank, rows in nccl-tests' format, and values that tell every block apart.
#include "probes/allreduce_sweep/collectives.h"

#include <gtest/gtest.h>

#include <set>

#include "probes/allreduce_sweep/sweep.h"

namespace gpuconform::allreduce_sweep {
namespace {

TEST(Collectives, NamesTheThreeInReportOrder) {
  EXPECT_EQ(CollectiveNames(), "alltoall, allgather, reduce_scatter");
  ASSERT_TRUE(FindCollective("allgather"));
  EXPECT_EQ(FindCollective("allgather")->perf_binary, "all_gather_perf");
  EXPECT_EQ(FindCollective("reduce_scatter")->mpi_call, "MPI_Reduce_scatter_block");
  EXPECT_FALSE(FindCollective("allreduce"));
}

TEST(Collectives, BusbwIsAlgbwTimesNMinusOneOverN) {
  EXPECT_DOUBLE_EQ(CollectiveBusBandwidth(3.0, 3), 2.0);
  EXPECT_DOUBLE_EQ(CollectiveBusBandwidth(8.0, 8), 7.0);
  EXPECT_DOUBLE_EQ(CollectiveBusBandwidth(5.0, 1), 5.0);
}

TEST(Collectives, SizesRoundDownToAWholeBlockPerRank) {
  EXPECT_EQ(CollectiveSizeBytes(64 * kMiB, 3), 67108860);
  EXPECT_EQ(CollectiveSizeBytes(64 * kMiB, 4), 64 * kMiB);
  EXPECT_EQ(CollectiveSizeBytes(5, 3), 12);  // at least one float per rank
}

TEST(Collectives, RowIsNcclTestsFormatWithTheFactorApplied) {
  // 3 MB in 1000 us: algbw 3 GB/s, busbw 2 GB/s over 3 ranks.
  EXPECT_EQ(CollectiveTableRow(3000000, 1000, "none", CollectiveBusBandwidth(1.0, 3), 0),
            "      3000000        750000     float    none      -1   1000.0   3.000   2.000      0\n");
}

TEST(Collectives, AllreduceRowIsUnchanged) {
  EXPECT_EQ(SweepTableRow(3000000, 1000, 3, 2),
            "      3000000        750000     float     sum      -1   1000.0   3.000   4.000      2\n");
}

TEST(Collectives, EveryBlockOfARankDiffers) {
  constexpr int kRanks = 64;
  for (int to = 0; to < kRanks; ++to) {
    std::set<float> alltoall;
    for (int from = 0; from < kRanks; ++from) alltoall.insert(AlltoallBlockValue(from, to));
    EXPECT_EQ(alltoall.size(), static_cast<std::size_t>(kRanks)) << to;
  }
  // A block delivered to the wrong rank differs too.
  EXPECT_NE(AlltoallBlockValue(1, 2), AlltoallBlockValue(1, 3));
  EXPECT_NE(AllgatherBlockValue(0), AllgatherBlockValue(1));
  EXPECT_NE(ReduceScatterExpectedSum(0, 8), ReduceScatterExpectedSum(1, 8));
}

TEST(Collectives, ReduceScatterSumIsTheSumOfTheInputs) {
  for (int ranks : {2, 3, 8, 100}) {
    for (int to : {0, 1, ranks - 1}) {
      float sum = 0;
      for (int from = 0; from < ranks; ++from) sum += ReduceScatterInputValue(from, to);
      EXPECT_EQ(sum, ReduceScatterExpectedSum(to, ranks)) << ranks << " " << to;
    }
  }
}

}  // namespace
}  // namespace gpuconform::allreduce_sweep
