#include "probes/slurm/srun_launch.h"

#include <gtest/gtest.h>

#include "probes/slurm/srun_parse.h"
#include "tests/support/test_support.h"

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

TEST(SrunLaunchArgv, FirstStepThenOneWithoutTheRefusedNodeTellingTheRun) {
  LaunchStep step;
  step.nodes = 3;
  step.executable = "/opt/gpuconform";
  step.run_args = {"--profile", "local", "--junit", "r.xml"};
  EXPECT_EQ(SrunArgv(step), (std::vector<std::string>{"srun", "--immediate=30", "--nodes=3", "--ntasks-per-node=1",
                                                       "/opt/gpuconform", "run", "--profile", "local", "--junit",
                                                       "r.xml", "--launched"}));
  step.nodes = 2;
  step.refused = {{"node1", "srun: error: Task launch ... failed on node node1: x"}};
  const auto again = SrunArgv(step);
  EXPECT_EQ(again[2], "--nodes=2");
  EXPECT_EQ(again[4], "--overlap") << "the failed step may still hold the nodes";
  EXPECT_EQ(again[5], "--exclude=node1");
  EXPECT_EQ(std::vector<std::string>(again.end() - 2, again.end()),
            (std::vector<std::string>{"--launch-refused", "node1=srun: error: Task launch ... failed on node node1: x"}));
  step.nodelist = "node2,node3";
  for (const auto& word : SrunArgv(step)) EXPECT_NE(word.rfind("--exclude", 0), 0u) << "srun refuses both at once";
}

TEST(SrunLaunchRerun, NodelistIsTheFirstNodesOfThePoolThatWereNotRefused) {
  const std::vector<RefusedNode> refused = {{"node1", "x"}, {"node4", "y"}};
  EXPECT_EQ(test_support::Parsed(RerunNodelist("node[1-3]", refused, 2)), "node2,node3");
  EXPECT_EQ(test_support::Parsed(RerunNodelist("node[1-6]", refused, 3)), "node2,node3,node5")
      << "asked for fewer than the pool";
  EXPECT_FALSE(RerunNodelist("node[3-1", refused, 2)) << "a malformed list is an error, not an empty step";
}

TEST(SrunLaunchRerun, TheRerunsTasksSeeItsNodesAsTheJobsSoSlurmsPmixAddressesTheRightPeers) {
  LaunchStep step;
  step.nodes = 3;
  EXPECT_TRUE(SrunEnvironment(step).empty()) << "the first step keeps Slurm's own variables";
  step.nodes = 2;
  step.refused = {{"node1", "x"}};
  EXPECT_TRUE(SrunEnvironment(step).empty()) << "without a node list srun picks the nodes";
  step.nodelist = "node2,node3";
  EXPECT_EQ(SrunEnvironment(step), (std::vector<std::pair<std::string, std::string>>{
                                       {"SLURM_JOB_NODELIST", "node2,node3"}, {"SLURM_NODELIST", "node2,node3"}}));
}

}  // namespace
}  // namespace gpuconform::slurm
