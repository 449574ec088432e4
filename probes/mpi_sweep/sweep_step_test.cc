// The MPI sweep's gate, its own step's command line and the worker's arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>

#include "harness/util/text_util.h"
#include "probes/mpi_sweep/mpi_sweep_worker.h"
#include "probes/mpi_sweep/sweep_gate.h"
#include "probes/mpi_sweep/sweep_step.h"

namespace gpuconform::mpi_sweep {
namespace {

const std::vector<std::string> kNodes = {"node1", "node2", "node3"};

// The gate runs the sweep on `included` and leaves out one node, returned for the test's
// expectations of it (an empty one when it leaves out another number, so they fail too).
ExcludedNode OnlyExcluded(const SweepGate& gate, const std::vector<std::string>& included) {
  EXPECT_EQ(gate.included, included);
  EXPECT_EQ(gate.excluded.size(), 1u);
  return gate.excluded.size() == 1 ? gate.excluded[0] : ExcludedNode{};
}

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
  const ExcludedNode excluded = OnlyExcluded(DecideSweepNodes(kNodes, unreachable, {}), {"node1", "node2"});
  EXPECT_EQ(excluded.node, "node3");
  EXPECT_EQ(excluded.why,
            "node1 cannot connect to node3 at 10.20.0.3:4000 (No route to host); node2 cannot connect to node3 at "
            "10.20.0.3:4000 (No route to host); node3 cannot connect to node1 at 10.20.0.1:4001 (Connection timed out)");
}

// One pair cut in one direction: the end that cannot be reached is left out, not both.
TEST(SweepGate, OneFailedPairLeavesOutTheUnreachableEnd) {
  const SweepGate gate = DecideSweepNodes(kNodes, {{"node1", "node2", "", "timed out"}}, {});
  EXPECT_EQ(OnlyExcluded(gate, {"node1", "node3"}).node, "node2");
}

TEST(SweepGate, ANodeThatCouldNotBeTestedIsLeftOutWithItsReason) {
  const SweepGate gate = DecideSweepNodes(kNodes, {}, {{"node2", "ens1 has no IPv4 address on node2"}});
  EXPECT_EQ(OnlyExcluded(gate, {"node1", "node3"}).why, "ens1 has no IPv4 address on node2");
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

// argv holds every word of `present` and none of `absent`.
void ExpectWords(const std::vector<std::string>& argv, std::initializer_list<std::string> present,
                 std::initializer_list<std::string> absent) {
  for (const std::string& word : present) EXPECT_TRUE(Has(argv, word)) << word;
  for (const std::string& word : absent) EXPECT_FALSE(Has(argv, word)) << word;
}

TEST(SweepStep, UnderSlurmItIsAnOverlappingStepOfTheJobOnTheGatedNodes) {
  SweepStep step{StepLauncher::kSrun, "42", {"node1", "node2"}, "/opt/bin/gpuconform", {"--sizes", "1048576"}};
  const auto argv = SweepStepCommand(step, {"PATH=/usr/bin", "SLURM_CONF=/etc/slurm.conf", "SLURM_NTASKS=3",
                                            "SLURM_GPUS_PER_NODE=8", "PMIX_RANK=0", "OMPI_MCA_btl_tcp_if_include=ens1"});
  ASSERT_GE(argv.size(), 3u);
  EXPECT_EQ(argv[0], "env");
  EXPECT_EQ(argv[1], "-i");
  // The user's MPI settings carry over; srun would take the run's task count and GPUs.
  ExpectWords(argv,
              {"PATH=/usr/bin", "SLURM_CONF=/etc/slurm.conf", "OMPI_MCA_btl_tcp_if_include=ens1", "srun", "--jobid=42",
               "--overlap", "--nodelist=node1,node2", "--ntasks=2"},
              {"SLURM_NTASKS=3", "SLURM_GPUS_PER_NODE=8", "PMIX_RANK=0"});
  EXPECT_EQ(argv[argv.size() - 4], "/opt/bin/gpuconform");
  EXPECT_EQ(argv[argv.size() - 3], kSweepWorkerVerb);
  EXPECT_EQ(argv.back(), "1048576");
}

TEST(SweepStep, UnderMpirunItIsASecondMpirunWithoutTheFirstJobsSettings) {
  SweepStep step{StepLauncher::kMpirun, "", {"node1", "node3"}, "/opt/bin/gpuconform", {}};
  const auto argv = SweepStepCommand(
      step, {"OMPI_COMM_WORLD_RANK=0", "OMPI_MCA_orte_hnp_uri=1.2.3", "OMPI_MCA_ess_base_jobid=7",
             "OMPI_MCA_plm_rsh_agent=/bin/rsh", "OMPI_ALLOW_RUN_AS_ROOT=1", "HOME=/root"});
  ExpectWords(argv, {"OMPI_MCA_plm_rsh_agent=/bin/rsh", "OMPI_ALLOW_RUN_AS_ROOT=1", "HOME=/root", "mpirun", "node1,node3"},
              {"OMPI_COMM_WORLD_RANK=0", "OMPI_MCA_orte_hnp_uri=1.2.3", "OMPI_MCA_ess_base_jobid=7", "srun"});
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

TEST(SweepWorkerArgs, CollectivesAreWrittenOnlyWhenSet) {
  SweepWorkerOptions options{{67108864}, 0, 60, 0};
  EXPECT_EQ(Join(SweepWorkerArgs(options), " "), "--sizes 67108864 --iters 0 --timeout-s 60 --pair-bytes 0");
  options.collectives = {"alltoall", "reduce_scatter"};
  const auto parsed = ParseSweepWorkerArgs(SweepWorkerArgs(options));
  ASSERT_EQ(parsed.error, "");
  EXPECT_EQ(parsed.options.collectives, options.collectives);
  EXPECT_EQ(ParseSweepWorkerArgs({"--sizes", "1", "--collectives", "alltoall,allreduce"}).error,
            "--collectives: unknown collective 'allreduce'; known: alltoall, allgather, reduce_scatter");
}

TEST(SweepWorkerArgs, TheIsolationsEveryPairExchangeIsWrittenOnlyWhenSet) {
  SweepWorkerOptions options{{8388608}, 0, 15, 0};
  EXPECT_EQ(Join(SweepWorkerArgs(options), " ").find("--connect-every-pair"), std::string::npos);
  options.connect_every_pair = true;
  EXPECT_EQ(Join(SweepWorkerArgs(options), " "),
            "--sizes 8388608 --iters 0 --timeout-s 15 --pair-bytes 0 --connect-every-pair 1");
  const auto parsed = ParseSweepWorkerArgs(SweepWorkerArgs(options));
  ASSERT_EQ(parsed.error, "");
  EXPECT_TRUE(parsed.options.connect_every_pair);
  EXPECT_FALSE(ParseSweepWorkerArgs({"--sizes", "1"}).options.connect_every_pair);
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
