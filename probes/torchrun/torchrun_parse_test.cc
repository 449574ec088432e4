// The Torchrun probe's output parser, on outputs recorded on the local cluster
// (fixtures/snapshots/local-3node-torchrun-*) and on broken ones.
#include <gtest/gtest.h>

#include "probes/torchrun/torchrun_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::torchrun {
namespace {

using test_support::Parsed;

std::string Recorded(const std::string& snapshot, const std::string& node) {
  return test_support::ReadFile(test_support::FixtureDir("local-3node-torchrun-" + snapshot) + "/nodes/" + node +
                                "/torchrun.txt");
}

TEST(TorchrunParse, HealthyNodeHasOneLauncherAndItsWorkersRecords) {
  const auto report = Parsed(ParseTorchrunReport(Recorded("healthy", "node2"), "node2", "node2/torchrun.txt"));
  ASSERT_EQ(report.launchers.size(), 1u);
  const LauncherRun& launcher = report.launchers[0];
  EXPECT_EQ(launcher.state, "ok");
  EXPECT_EQ(launcher.nnodes, 3);
  EXPECT_EQ(launcher.nproc_per_node, 2);
  EXPECT_EQ(launcher.node_rank, 1);
  EXPECT_EQ(launcher.slurm_nodeid, "1");
  EXPECT_EQ(launcher.master_host, "node1");
  EXPECT_EQ(launcher.backend, "gloo");
  ASSERT_EQ(report.workers.size(), 2u);
  for (const auto& worker : report.workers) {
    EXPECT_TRUE(worker.started && worker.described && worker.done);
    EXPECT_EQ(worker.world_size, 6);
    EXPECT_EQ(worker.group_rank, 1);
    EXPECT_EQ(worker.rank, 2 + worker.local_rank);
    ASSERT_TRUE(worker.init_ok.has_value());
    EXPECT_TRUE(*worker.init_ok);
    ASSERT_EQ(worker.allreduces.size(), 1u);
    EXPECT_EQ(worker.allreduces[0].expected, 21.0);
    EXPECT_EQ(worker.allreduces[0].got, 21.0);
    EXPECT_EQ(worker.shard_indices.at(0).size(), 40u);
    EXPECT_EQ(worker.dataset_items, 240);
    EXPECT_TRUE(worker.dataload_mb_per_s.count(0) && worker.dataload_mb_per_s.count(4));
    EXPECT_TRUE(worker.checkpoint.present && worker.checkpoint.consistent);
    EXPECT_FALSE(worker.checkpoint.wrote);  // rank 0 is on node1
  }
  ASSERT_EQ(report.ports.size(), 1u);
  EXPECT_EQ(report.ports[0].role, "client");
  EXPECT_EQ(report.ports[0].state, "reachable");
}

TEST(TorchrunParse, UnpatchedLauncherKeepsItsTracebackAndVersions) {
  const auto report =
      Parsed(ParseTorchrunReport(Recorded("unpatched-launcher", "node1"), "node1", "node1/torchrun.txt"));
  ASSERT_EQ(report.launchers.size(), 1u);
  const LauncherRun& launcher = report.launchers[0];
  EXPECT_EQ(launcher.state, "crashed");
  EXPECT_EQ(launcher.command, "/usr/bin/torchrun");
  EXPECT_EQ(launcher.torch_version.rfind("1.13", 0), 0u);
  EXPECT_EQ(launcher.python_version.rfind("3.11", 0), 0u);
  EXPECT_TRUE(report.workers.empty());
  EXPECT_EQ(LastExceptionLine(launcher.output), "AttributeError: 'NoneType' object has no attribute 'get'");
}

TEST(TorchrunParse, TwoLaunchersOnANodeAreBothKept) {
  const auto report =
      Parsed(ParseTorchrunReport(Recorded("two-launchers-per-node", "node1"), "node1", "node1/torchrun.txt"));
  ASSERT_EQ(report.launchers.size(), 2u);
  EXPECT_EQ(report.launchers[0].task_rank, 0);
  EXPECT_EQ(report.launchers[1].task_rank, 1);
  EXPECT_EQ(report.launchers[0].node_rank, report.launchers[1].node_rank);
}

TEST(TorchrunParse, LastExceptionLineFindsQualifiedAndPrefixedExceptions) {
  EXPECT_EQ(LastExceptionLine({"Traceback (most recent call last):", "  File \"x\", line 1",
                               "torch.distributed.DistStoreError: Timed out after 901 seconds"}),
            "torch.distributed.DistStoreError: Timed out after 901 seconds");
  EXPECT_EQ(LastExceptionLine({"[rank0]: RuntimeError: oops", "some later noise"}), "RuntimeError: oops");
  EXPECT_EQ(LastExceptionLine({"all fine", "WARNING: nothing to see"}), "");
}

TEST(TorchrunParse, RefusesOtherFilesAndMalformedFields) {
  test_support::ExpectEachRefused(
      [](const std::string& text, const std::string& origin) { return ParseTorchrunReport(text, "n", origin); },
      {
          {"", "f:1: empty Torchrun probe output"},
          {"checkpoint-probe version=1\n", "f:1: not a Torchrun probe output"},
          {"torchrun-probe version=2\n", "f:1: not a Torchrun probe output"},
          {"torchrun-probe version=1\nlauncher task_rank=x state=ok\n", "f:2:"},
          {"torchrun-probe version=1\nlauncher task_rank=0\n", "f:2: a launcher record without state="},
          {"torchrun-probe version=1\nw-shard task_rank=0 rank=0 epoch=0 items=4 indices=1,x\n", "f:2: indices"},
          {"torchrun-probe version=1\nw-allreduce task_rank=0 rank=0 got=NaNx\n", "f:2:"},
      });
}

TEST(TorchrunParse, NeverCrashesOnTruncatedOrNoisyOutput) {
  test_support::SurvivesTruncationAndNoise(Recorded("two-launchers-per-node", "node2"),
                                           [](const std::string& text, const std::string& origin) {
                                             return ParseTorchrunReport(text, "node2", origin);
                                           });
}

}  // namespace
}  // namespace gpuconform::torchrun
