// The MPI sweep's gate, its own step's command line and the worker's arguments.
#include <gtest/gtest.h>

#include <algorithm>

#include "probes/mpi_sweep/mpi_sweep_worker.h"
#include "probes/mpi_sweep/sweep_gate.h"
#include "probes/mpi_sweep/sweep_step.h"

namespace gpuconform::mpi_sweep {
namespace {

const std::vector<std::string> kNodes = {"node1", "node2", "node3"};

TEST(SweepGate, EveryNodeIsIncludedWhenEveryPairConnects) {
  const SweepGate gate = DecideSweepNodes(kNodes, {}, {});
  EXPECT_EQ(gate.included, kNodes);
  EXPECT_TRUE(gate.excluded.empty());
}

// node3's fabric address is unreachable from the others (a route, a firewall, a dead port):
// node3 is in every failed pair, so it alone is left out, with the pairs as the reason.
TEST(SweepGate, TheNodeInEveryFailedPairIsLeftOut) {
  const std::vector<UnreachablePair> unreachable = {
      {"node1", "node3", "10.20.0.3:4000", "No route to host"},
      {"node2", "node3", "10.20.0.3:4000", "No route to host"},
      {"node3", "node1", "10.20.0.1:4001", "Connection timed out"},
  };
  const SweepGate gate = DecideSweepNodes(kNodes, unreachable, {});
  EXPECT_EQ(gate.included, (std::vector<std::string>{"node1", "node2"}));
  ASSERT_EQ(gate.excluded.size(), 1u);
  EXPECT_EQ(gate.excluded[0].node, "node3");
  EXPECT_EQ(gate.excluded[0].why,
            "node1 cannot connect to node3 at 10.20.0.3:4000 (No route to host); node2 cannot connect to node3 at "
            "10.20.0.3:4000 (No route to host); node3 cannot connect to node1 at 10.20.0.1:4001 (Connection timed out)");
}

// One pair cut in one direction: the end that cannot be reached is left out, not both.
TEST(SweepGate, OneFailedPairLeavesOutTheUnreachableEnd) {
  const SweepGate gate = DecideSweepNodes(kNodes, {{"node1", "node2", "", "timed out"}}, {});
  EXPECT_EQ(gate.included, (std::vector<std::string>{"node1", "node3"}));
  ASSERT_EQ(gate.excluded.size(), 1u);
  EXPECT_EQ(gate.excluded[0].node, "node2");
}

TEST(SweepGate, ANodeThatCouldNotBeTestedIsLeftOutWithItsReason) {
  const SweepGate gate = DecideSweepNodes(kNodes, {}, {{"node2", "ens1 has no IPv4 address on node2"}});
  EXPECT_EQ(gate.included, (std::vector<std::string>{"node1", "node3"}));
  ASSERT_EQ(gate.excluded.size(), 1u);
  EXPECT_EQ(gate.excluded[0].why, "ens1 has no IPv4 address on node2");
}

TEST(SweepGate, ExcludedLinesReadBack) {
  const std::vector<ExcludedNode> excluded = {{"node3", "node1 cannot connect to node3"}, {"node2", "why\nnot"}};
  const auto back = ParseExcludedLines("# gpuconform header\n" + ExcludedLines(excluded) + "# pair a b 1 busbw 2\n");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].node, "node3");
  EXPECT_EQ(back[0].why, "node1 cannot connect to node3");
  EXPECT_EQ(back[1].why, "why not");
}

bool Has(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

TEST(SweepStep, UnderSlurmItIsAnOverlappingStepOfTheJobOnTheGatedNodes) {
  SweepStep step{StepLauncher::kSrun, "42", {"node1", "node2"}, "/opt/bin/gpuconform", {"--sizes", "1048576"}};
  const auto argv = SweepStepCommand(step, {"PATH=/usr/bin", "SLURM_CONF=/etc/slurm.conf", "SLURM_NTASKS=3",
                                            "SLURM_GPUS_PER_NODE=8", "PMIX_RANK=0", "OMPI_MCA_btl_tcp_if_include=ens1"});
  ASSERT_GE(argv.size(), 3u);
  EXPECT_EQ(argv[0], "env");
  EXPECT_EQ(argv[1], "-i");
  EXPECT_TRUE(Has(argv, "PATH=/usr/bin"));
  EXPECT_TRUE(Has(argv, "SLURM_CONF=/etc/slurm.conf"));
  EXPECT_TRUE(Has(argv, "OMPI_MCA_btl_tcp_if_include=ens1")) << "the user's MPI settings carry over";
  EXPECT_FALSE(Has(argv, "SLURM_NTASKS=3")) << "srun would take the run's task count";
  EXPECT_FALSE(Has(argv, "SLURM_GPUS_PER_NODE=8"));
  EXPECT_FALSE(Has(argv, "PMIX_RANK=0"));
  EXPECT_TRUE(Has(argv, "srun"));
  EXPECT_TRUE(Has(argv, "--jobid=42"));
  EXPECT_TRUE(Has(argv, "--overlap"));
  EXPECT_TRUE(Has(argv, "--nodelist=node1,node2"));
  EXPECT_TRUE(Has(argv, "--ntasks=2"));
  EXPECT_EQ(argv[argv.size() - 4], "/opt/bin/gpuconform");
  EXPECT_EQ(argv[argv.size() - 3], kSweepWorkerVerb);
  EXPECT_EQ(argv.back(), "1048576");
}

TEST(SweepStep, UnderMpirunItIsASecondMpirunWithoutTheFirstJobsSettings) {
  SweepStep step{StepLauncher::kMpirun, "", {"node1", "node3"}, "/opt/bin/gpuconform", {}};
  const auto argv = SweepStepCommand(
      step, {"OMPI_COMM_WORLD_RANK=0", "OMPI_MCA_orte_hnp_uri=1.2.3", "OMPI_MCA_ess_base_jobid=7",
             "OMPI_MCA_plm_rsh_agent=/bin/rsh", "OMPI_ALLOW_RUN_AS_ROOT=1", "HOME=/root"});
  EXPECT_FALSE(Has(argv, "OMPI_COMM_WORLD_RANK=0"));
  EXPECT_FALSE(Has(argv, "OMPI_MCA_orte_hnp_uri=1.2.3"));
  EXPECT_FALSE(Has(argv, "OMPI_MCA_ess_base_jobid=7"));
  EXPECT_TRUE(Has(argv, "OMPI_MCA_plm_rsh_agent=/bin/rsh"));
  EXPECT_TRUE(Has(argv, "OMPI_ALLOW_RUN_AS_ROOT=1"));
  EXPECT_TRUE(Has(argv, "HOME=/root"));
  EXPECT_TRUE(Has(argv, "mpirun"));
  EXPECT_TRUE(Has(argv, "node1,node3"));
  EXPECT_FALSE(Has(argv, "srun"));
}

TEST(SweepWorkerArgs, ReadBackWhatTheProbeWrites) {
  const SweepWorkerOptions options{{1048576, 8388608}, 3, 45, 8388608};
  const auto parsed = ParseSweepWorkerArgs(SweepWorkerArgs(options));
  ASSERT_EQ(parsed.error, "");
  EXPECT_EQ(parsed.options.sizes_bytes, options.sizes_bytes);
  EXPECT_EQ(parsed.options.iterations, 3);
  EXPECT_EQ(parsed.options.timeout_s, 45);
  EXPECT_EQ(parsed.options.pair_bytes, 8388608);
}

TEST(SweepWorkerArgs, BadArgumentsAreNamed) {
  EXPECT_EQ(ParseSweepWorkerArgs({"--sizes", "1,x"}).error, "--sizes must list positive byte counts, got '1,x'");
  EXPECT_EQ(ParseSweepWorkerArgs({"--sizes", "1", "--timeout-s", "0"}).error,
            "--timeout-s must be a whole number of at least 1, got '0'");
  EXPECT_EQ(ParseSweepWorkerArgs({"--bogus", "1"}).error, "unknown argument --bogus");
  EXPECT_EQ(ParseSweepWorkerArgs({}).error, "--sizes is required");
  EXPECT_EQ(ParseSweepWorkerArgs({"--sizes"}).error, "--sizes needs a value");
}

}  // namespace
}  // namespace gpuconform::mpi_sweep
