// The MPI collectives probe's file split at its marker lines, each table read by the nccl-tests
// parser (redop "none" taken here, refused where an allreduce is judged), and its errors at
// the file's own line.
#include "probes/mpi_sweep/collective_tables.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::mpi_sweep {
namespace {

using ::testing::HasSubstr;

std::string Header(const std::string& call) {
  return allreduce_sweep::SweepTableHeader("gpuconform " + call + " (float) on host buffers",
                                           {{"node1", -1, "[host] CPU memory"}, {"node2", -1, "[host] CPU memory"}},
                                           2);
}

std::string Row(long long size, const std::string& redop, long long wrong = 0) {
  return allreduce_sweep::CollectiveTableRow(size, 1000, redop, 0.5, wrong);
}

TEST(CollectiveTables, EachMarkedTableIsParsed) {
  const std::string text = "# limits node=node1\n" + CollectiveMarkerLine("alltoall") + Header("MPI_Alltoall") +
                           Row(1048576, "none") + Row(4194304, "none") + CollectiveMarkerLine("reduce_scatter") +
                           Header("MPI_Reduce_scatter_block") + Row(1048576, "sum", 7);
  const auto tables = ParseCollectiveTables(text, "cluster/mpi-collectives.txt");
  ASSERT_TRUE(tables) << tables.error();
  ASSERT_EQ(tables->size(), 2u);
  const auto& alltoall = tables->at("alltoall");
  EXPECT_EQ(alltoall.ranks, 2);
  EXPECT_EQ(alltoall.nodes, 2);
  ASSERT_EQ(alltoall.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(alltoall.rows[1].busbw_gb_per_s, 2.097);
  EXPECT_EQ(tables->at("reduce_scatter").rows.at(0).wrong_elements, 7);
  EXPECT_EQ(tables->count("allgather"), 0u);
}

TEST(CollectiveTables, AMalformedRowNamesTheFilesLine) {
  const std::string text = CollectiveMarkerLine("alltoall") + Header("MPI_Alltoall") + Row(1048576, "none") +
                           CollectiveMarkerLine("allgather") + Header("MPI_Allgather") +
                           "      1048576        262144     float    none      -1   oops\n";
  const auto tables = ParseCollectiveTables(text, "cluster/mpi-collectives.txt");
  ASSERT_FALSE(tables);
  // 1 marker + 6 header lines (two ranks) + 1 row, then the second marker and header: the row is line 16.
  EXPECT_THAT(tables.error(), HasSubstr("cluster/mpi-collectives.txt:16:"));
}

TEST(CollectiveTables, UnknownOrRepeatedMarkersAreErrors) {
  EXPECT_EQ(ParseCollectiveTables("# collective allreduce\n", "f").error(),
            "f:1: unknown collective 'allreduce' (known: alltoall, allgather, reduce_scatter)");
  const std::string twice = CollectiveMarkerLine("alltoall") + Header("MPI_Alltoall") + Row(1048576, "none") +
                            CollectiveMarkerLine("alltoall");
  EXPECT_THAT(ParseCollectiveTables(twice, "f").error(), HasSubstr("f:9: collective alltoall again (first at line 1)"));
}

TEST(CollectiveTables, AnAllreduceJudgeStillRefusesRedopNone) {
  const std::string table = Header("MPI_Alltoall") + Row(1048576, "none");
  EXPECT_THAT(nccl_tests::ParseNcclTestsOutput(table, "f").error(), HasSubstr("redop 'none'"));
  EXPECT_TRUE(nccl_tests::ParseNcclTestsOutput(table, "f", nccl_tests::RowsOf::kAnyCollective));
}

}  // namespace
}  // namespace gpuconform::mpi_sweep
