// The MPI sweep's record of how its workers died: read from what srun, mpirun, Open MPI and
// Slurm print, written into the table and read back, and classified by the one rule.
#include "probes/mpi_sweep/step_deaths.h"

#include <gtest/gtest.h>

#include <csignal>

namespace gpuconform::mpi_sweep {
namespace {

const std::vector<std::string> kNodes = {"node1", "node2", "node3"};

// node3's Open MPI found no room for its shared-memory backing file in a 64 KiB /dev/shm and the
// worker died of SIGBUS; srun then ended the step, and node1's worker was killed by it.
const char kShmStderr[] =
    "--------------------------------------------------------------------------\n"
    "It appears as if there is not enough space for /dev/shm/vader_segment.node3.9c2b0001.2 (the shared-memory\n"
    "backing file). It is likely that your MPI job will now either abort or experience performance degradation.\n"
    "  Local host:  node3\n"
    "node1: MPI_Allreduce of 1 MiB did not complete within 60 s\n"
    "srun: error: node3: task 2: Bus error\n"
    "srun: Terminating StepId=12.3\n"
    "slurmstepd: error: *** STEP 12.3 ON node1 CANCELLED AT 2026-12-07T09:00:00 ***\n"
    "srun: error: node1: task 0: Killed\n";

TEST(StepDeaths, TheWorkerThatEndedTheStepIsNamedWithWhatItSaid) {
  const auto deaths = StepDeaths(kShmStderr, kNodes, false);
  ASSERT_EQ(deaths.size(), 1u) << "node1 was killed by srun ending the step, not by its node";
  EXPECT_EQ(deaths[0].node, "node3");
  EXPECT_EQ(deaths[0].death.signal, SIGBUS);
  const auto& text = deaths[0].death.text;
  EXPECT_NE(std::find(text.begin(), text.end(), "srun: error: node3: task 2: Bus error"), text.end());
  EXPECT_TRUE(std::none_of(text.begin(), text.end(), [](const std::string& line) { return line.starts_with("node1:"); }))
      << "another node's line is not node3's";
}

TEST(StepDeaths, SlurmsOomKillAndATaskRangeAreTheNodesMemory) {
  const auto deaths = StepDeaths(
      "slurmstepd: error: Detected 1 oom_kill event in StepId=12.3. Some of the step tasks have been OOM Killed.\n"
      "srun: error: node2: tasks 1-3: Out Of Memory\nsrun: Terminating StepId=12.3\nsrun: error: node1: task 0: Killed\n",
      kNodes, false);
  ASSERT_EQ(deaths.size(), 1u);
  SweepDeathRecords records;
  records.deaths[deaths[0].node] = deaths[0].death;
  records.limits["node2"].memory_max_bytes = 1LL << 30;
  const auto classified = ClassifySweepDeaths(records);
  ASSERT_EQ(classified.size(), 1u);
  EXPECT_EQ(classified[0].node, "node2");
  EXPECT_EQ(classified[0].exhaustion.code, "memory-exhausted");
  EXPECT_EQ(classified[0].exhaustion.limit, "the job's cgroup memory.max is 1 GiB");
  EXPECT_EQ(classified[0].who, "the MPI sweep worker on node2");
}

TEST(StepDeaths, MpirunsWordsAndUcxsMemlockLineAreRead) {
  const auto deaths = StepDeaths(
      "[1733562000.123456] [node3:4242:0] ib_iface.c:746 UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate "
      "memory\n"
      "mpirun noticed that process rank 2 with PID 4242 on node node3 exited on signal 6 (Aborted).\n",
      kNodes, false);
  ASSERT_EQ(deaths.size(), 1u);
  EXPECT_EQ(deaths[0].node, "node3");
  EXPECT_EQ(deaths[0].death.signal, SIGABRT);
  EXPECT_EQ(ClassifySweepDeaths({{{"node3", deaths[0].death}}, {}}).at(0).exhaustion.code, "memlock-too-low");
}

TEST(StepDeaths, AStepKilledAtTheProbesDeadlineBlamesNoMemory) {
  const auto deaths = StepDeaths("srun: error: node2: task 1: Killed\n", kNodes, true);
  ASSERT_EQ(deaths.size(), 1u);
  EXPECT_TRUE(deaths[0].death.killed_by_deadline);
  EXPECT_TRUE(ClassifySweepDeaths({{{"node2", deaths[0].death}}, {}}).empty());
  EXPECT_EQ(ClassifySweepDeaths({{{"node2", StepDeaths("srun: error: node2: task 1: Killed\n", kNodes, false)[0].death}}, {}})
                .at(0)
                .exhaustion.code,
            "memory-exhausted")
      << "the same SIGKILL without the deadline is the OOM killer's";
}

TEST(StepDeathLines, ReadBackWhatTheProbeAndTheWorkerWrite) {
  resource_limits::NodeLimits limits;
  limits.shm_bytes = 64 << 10;
  limits.shm_free_bytes = 60 << 10;
  limits.memlock_bytes = -1;
  const std::string table = "# gpuconform MPI_Allreduce\n" + NodeLimitsLine("node3", limits) +
                            NodeLimitsLine("node1", {}) + "     1048576  262144 float sum -1 1.0 0.1 0.1 0\n" +
                            DeathLines(StepDeaths(kShmStderr, kNodes, false)) + "# pair node1 node2 8388608 busbw 0.812\n";
  const SweepDeathRecords records = ParseDeathLines(table);
  ASSERT_EQ(records.deaths.size(), 1u);
  const auto& death = records.deaths.at("node3");
  EXPECT_EQ(death.signal, SIGBUS);
  EXPECT_FALSE(death.exit_code);
  EXPECT_EQ(death.text, StepDeaths(kShmStderr, kNodes, false)[0].death.text);
  EXPECT_EQ(records.limits.at("node3").shm_bytes, 64 << 10);
  EXPECT_EQ(records.limits.at("node3").memlock_bytes, -1);
  EXPECT_FALSE(records.limits.at("node3").open_files);
  const auto classified = ClassifySweepDeaths(records);
  ASSERT_EQ(classified.size(), 1u);
  EXPECT_EQ(classified[0].exhaustion.code, "shm-exhausted");
  EXPECT_EQ(classified[0].exhaustion.limit, "/dev/shm is 64 KiB (60 KiB free)");
}

TEST(StepDeathLines, ATableWithoutThemOrWithBrokenOnesHasNoDeath) {
  EXPECT_TRUE(ParseDeathLines("# gpuconform MPI_Allreduce\n     1048576  262144 float sum -1 1.0 0.1 0.1 0\n"
                              "# excluded node3 why\n")
                  .deaths.empty());
  const auto records = ParseDeathLines("# worker-died exit=3\n# worker-said node=node2 text=orphan\n# limits shm_bytes=x "
                                       "node=node2\n# worker-died node=\"unterminated\n");
  EXPECT_TRUE(records.deaths.empty());
  EXPECT_FALSE(records.limits.at("node2").shm_bytes);
}

}  // namespace
}  // namespace gpuconform::mpi_sweep
