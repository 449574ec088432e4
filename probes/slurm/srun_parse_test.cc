#include "probes/slurm/srun_parse.h"

#include <gtest/gtest.h>

namespace gpuconform::slurm {
namespace {

// What srun 22.05 printed on the local cluster with node1's munged killed after it registered.
const std::string kMungedDead =
    "srun: error: slurm_receive_msgs: [[10.10.0.1]:6818] failed: Socket timed out on send/recv operation\n"
    "srun: error: Task launch for StepId=6.0 failed on node node1: Socket timed out on send/recv operation\n"
    "srun: error: Application launch failed: Socket timed out on send/recv operation\n"
    "srun: Job step aborted\n";

TEST(SrunLaunchRefusals, NamesEachRefusedNodeOnceWithSlurmsWords) {
  const auto refused = ParseSrunLaunchRefusals(kMungedDead + kMungedDead);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].node, "node1");
  EXPECT_EQ(refused[0].slurm_error,
            "srun: error: Task launch for StepId=6.0 failed on node node1: Socket timed out on send/recv operation");
  const auto older = ParseSrunLaunchRefusals(
      "srun: error: Task launch for step 12.0 failed on node gpu07: Zero Bytes were transmitted or received\r\n"
      "srun: error: Task launch for StepId=12.0 failed on node gpu09: Invalid job credential\n");
  ASSERT_EQ(older.size(), 2u);
  EXPECT_EQ(older[0].node, "gpu07");
  EXPECT_EQ(older[1].node, "gpu09");
}

TEST(SrunLaunchRefusals, TaskFailuresAndNoiseAreNotRefusals) {
  EXPECT_TRUE(ParseSrunLaunchRefusals("srun: error: node2: task 1: Exited with exit code 1\n").empty());
  EXPECT_TRUE(ParseSrunLaunchRefusals("").empty());
  EXPECT_TRUE(ParseSrunLaunchRefusals(std::string("\0\xff Task launch for", 19)).empty());
}

// Slurm's launch plugin, _task_finish: "HOSTS: task|tasks IDS: " and how the task ended.
TEST(SrunTaskExit, ExitStatusesAndSignalsNameTheNode) {
  const auto exit = ParseSrunTaskExit("srun: error: node3: task 2: Exited with exit code 127\n");
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->nodes, (std::vector<std::string>{"node3"}));
  EXPECT_EQ(exit->words, "srun: error: node3: task 2: Exited with exit code 127");
  const auto crash = ParseSrunTaskExit("srun: error: gpu-07: task 6: Segmentation fault (core dumped)");
  ASSERT_TRUE(crash);
  EXPECT_EQ(crash->nodes, (std::vector<std::string>{"gpu-07"}));
  const auto both = ParseSrunTaskExit("srun: error: node[2-3]: tasks 1-2: Killed");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->nodes, (std::vector<std::string>{"node2", "node3"}));
  EXPECT_TRUE(ParseSrunTaskExit("srun: error: node2: task 1: Out Of Memory"));
  EXPECT_TRUE(ParseSrunTaskExit("srun: error: node2: task 1: User defined signal 1"));
}

TEST(SrunTaskExit, OtherLinesAreNotTaskExits) {
  EXPECT_FALSE(ParseSrunTaskExit("srun: node2: task 1: Completed")) << "a clean exit is not an error";
  EXPECT_FALSE(ParseSrunTaskExit("srun: error: node2: tasks 0-2: unable to claim reserved port, aborting."));
  EXPECT_FALSE(ParseSrunTaskExit(
      "srun: error: Task launch for StepId=6.0 failed on node node1: Socket timed out on send/recv operation"));
  EXPECT_FALSE(ParseSrunTaskExit("gpuconform: node2: task 1: Exited with exit code 1")) << "not srun's line";
  EXPECT_FALSE(ParseSrunTaskExit("srun: error: node[3-1: task 1: Killed")) << "a malformed host list";
  EXPECT_FALSE(ParseSrunTaskExit(""));
  EXPECT_FALSE(ParseSrunTaskExit(std::string("srun: error: \0\xff: task 1: Killed", 30)));
}

TEST(SrunTaskExit, TellsATaskExitFromARefusalByItsWords) {
  EXPECT_TRUE(IsSrunTaskExit("srun: error: node3: task 2: Exited with exit code 127; the task printed: x"));
  EXPECT_FALSE(IsSrunTaskExit("srun: error: Task launch for StepId=6.0 failed on node node1: Invalid job credential"));
  EXPECT_FALSE(IsSrunTaskExit(""));
}

// What srun 22.05 relayed on the local cluster with node3's binary a wrapper that exits 127.
TEST(StartFailureWatch, ATaskEndingBeforeTheWorldFormedIsAStartFailureWithWhatItPrinted) {
  StartFailureWatch watch;
  watch.Feed("/shared/bin/gpuconform: line 3: /nonexistent/gpuconform: No such file or directory");
  EXPECT_TRUE(watch.ExitedAtStart().empty());
  watch.Feed("srun: error: node3: task 2: Exited with exit code 127");
  watch.Feed("srun: Job step aborted");
  const auto exited = watch.ExitedAtStart();
  ASSERT_EQ(exited.size(), 1u);
  EXPECT_EQ(exited[0].node, "node3");
  EXPECT_EQ(exited[0].slurm_error,
            "srun: error: node3: task 2: Exited with exit code 127; the task printed: /shared/bin/gpuconform: line 3: "
            "/nonexistent/gpuconform: No such file or directory");
  EXPECT_FALSE(watch.world_formed());
}

// srun's words when node1's slurmd cannot launch the task (its munged is dead): srun gives the
// step up and kills the tasks it started; node2 and node3 did not fail, only node1 was refused
// (ParseSrunLaunchRefusals names it).
TEST(StartFailureWatch, TheTasksSrunKillsAfterGivingTheStepUpAreNotStartFailures) {
  StartFailureWatch watch;
  for (const char* line :
       {"slurmstepd-node3: error: slurm_receive_msgs: [[node1]:6818] failed: Socket timed out on send/recv operation",
        "srun: error: slurm_receive_msgs: [[10.10.0.1]:6818] failed: Socket timed out on send/recv operation",
        "srun: error: Task launch for StepId=29.0 failed on node node1: Socket timed out on send/recv operation",
        "srun: error: Application launch failed: Socket timed out on send/recv operation",
        "srun: Job step aborted: Waiting up to 7 seconds for job step to finish.",
        "srun: error: node3: task 2: Killed", "srun: error: node2: task 1: Killed"}) {
    watch.Feed(line);
  }
  EXPECT_TRUE(watch.ExitedAtStart().empty());
}

TEST(StartFailureWatch, AfterTheWorldFormedAnEndingTaskIsTheRunsBusiness) {
  StartFailureWatch watch;
  watch.Feed("gpuconform: gathering probes on 3 rank(s): PMIx (Slurm), 3 ranks");
  EXPECT_TRUE(watch.world_formed());
  watch.Feed("srun: error: node3: task 2: Exited with exit code 1");
  EXPECT_TRUE(watch.ExitedAtStart().empty());
}

TEST(StartFailureWatch, SeveralNodesFailingGetSrunsWordsOnlySinceTheLinesAreNobodysInParticular) {
  StartFailureWatch watch;
  watch.Feed("gpuconform: error while loading shared libraries: libjemalloc.so.2: cannot open shared object file");
  watch.Feed("srun: error: node2: task 1: Exited with exit code 127");
  watch.Feed("srun: error: node3: task 2: Exited with exit code 127");
  watch.Feed("srun: error: node3: task 2: Exited with exit code 127");
  const auto exited = watch.ExitedAtStart();
  ASSERT_EQ(exited.size(), 2u) << "each node once";
  EXPECT_EQ(exited[0].slurm_error, "srun: error: node2: task 1: Exited with exit code 127");
  EXPECT_EQ(exited[1].node, "node3");
}

TEST(StartFailureWatch, TheTasksLinesAreFewShortAndPrintable) {
  StartFailureWatch watch;
  for (int i = 0; i < 10; ++i) watch.Feed("line " + std::to_string(i) + std::string(400, 'x') + "\x1b[31m");
  watch.Feed("srun: error: node3: task 2: Segmentation fault (core dumped)");
  const std::string words = watch.ExitedAtStart().at(0).slurm_error;
  EXPECT_EQ(words.find("line 4"), std::string::npos) << "four lines at most";
  EXPECT_EQ(words.find('\x1b'), std::string::npos);
  EXPECT_LT(words.size(), 4 * 320 + 100u);
}

}  // namespace
}  // namespace gpuconform::slurm
