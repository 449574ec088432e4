// The typed readers of allreduce sweeps: a table and the MPI sweep's own lines are parsed once
// per run, whatever number of checks judge them.
#include "probes/nccl_tests/nccl_tests_facts.h"

#include <gtest/gtest.h>

#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/mpi_sweep/mpi_sweep_facts.h"
#include "probes/nccl_tests/nccl_tests_probe.h"
#include "tests/support/test_support.h"

namespace gpuconform::nccl_tests {
namespace {

RawOutput Snapshotted(const std::string& fixture, const std::string& file) {
  return {ProbeStatus::kOk, test_support::ReadFile(test_support::FixtureDir(fixture) + "/cluster/" + file),
          "cluster/" + file, ""};
}

TEST(NcclTestsFacts, ATableIsParsedOncePerRunAndAMissingOneSaysWhy) {
  ClusterRaw raw;
  const std::string probe = NcclTestsOutputProbe().id;
  raw.cluster[probe] = Snapshotted("nccl-allreduce-slow-on-socket", "all_reduce_perf.txt");
  const Result<BandwidthTable>& table = ReadBandwidthTable(raw, probe);
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(table->origin, "cluster/all_reduce_perf.txt");
  EXPECT_EQ(&ReadBandwidthTable(raw, probe), &table) << "the second read returns the cached table";
  const Result<BandwidthTable>& absent = ReadBandwidthTable(raw, "nccl-allreduce");
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error(), "no cluster-wide nccl-allreduce output was collected");
}

TEST(MpiSweepFacts, ThePairsAndExcludedNodesAreReadOncePerRun) {
  ClusterRaw raw;
  raw.cluster[mpi_sweep::MpiAllreduceProbe().id] = Snapshotted("local-3node-mpi-allreduce", "mpi-allreduce.txt");
  const auto& pairs = mpi_sweep::ReadPairResults(raw);
  EXPECT_EQ(pairs.size(), 3u);
  EXPECT_EQ(&mpi_sweep::ReadPairResults(raw), &pairs);
  const auto& excluded = mpi_sweep::ReadExcludedNodes(raw);
  EXPECT_TRUE(excluded.empty());
  EXPECT_EQ(&mpi_sweep::ReadExcludedNodes(raw), &excluded);
}

}  // namespace
}  // namespace gpuconform::nccl_tests
