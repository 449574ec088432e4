#include "app/launch_verb.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

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

TEST(SrunLaunchArgv, AsksForTheGpusPerNodeItWasGivenAndNoneForZero) {
  LaunchStep step;
  step.nodes = 3;
  step.executable = "/opt/gpuconform";
  step.gpus_per_node = 8;
  const auto argv = SrunArgv(step);
  EXPECT_EQ(std::vector<std::string>(argv.begin(), argv.begin() + 5),
            (std::vector<std::string>{"srun", "--immediate=30", "--nodes=3", "--ntasks-per-node=1", "--gpus-per-node=8"}));
  step.gpus_per_node = 0;
  for (const auto& word : SrunArgv(step)) EXPECT_NE(word.rfind("--gpus", 0), 0u) << "none asked for";
}

TEST(SrunLaunchAllocation, SallocAsksForTheGpusAndTellsTheLaunchInsideIt) {
  LaunchRequest request;
  request.nodes = 3;
  request.immediate_s = 20;
  request.run_args = {"--profile", "local", "--junit", "r.xml"};
  EXPECT_EQ(SallocArgv(request, 8, "/opt/gpuconform"),
            (std::vector<std::string>{"salloc", "--no-kill", "--immediate=20", "--nodes=3", "--gpus-per-node=8",
                                      "/opt/gpuconform", "launch", "--immediate-s", "20", "--gpus-per-node", "8", "--",
                                      "--profile", "local", "--junit", "r.xml"}));
  request.nodelist = "node[1-3]";
  EXPECT_EQ(SallocArgv(request, 0, "/opt/gpuconform"),
            (std::vector<std::string>{"salloc", "--no-kill", "--immediate=20", "--nodes=3", "--nodelist=node[1-3]",
                                      "/opt/gpuconform", "launch", "--immediate-s", "20", "--gpus-per-node", "none",
                                      "--nodelist", "node[1-3]", "--", "--profile", "local", "--junit", "r.xml"}))
      << "none: the launch inside must not ask the profile again";
}

TEST(SrunLaunchGpus, TheRunsProfileGivesTheCountUnlessTheRequestDoes) {
  EXPECT_EQ(ProfileOfRun({"--junit", "r.xml"}, "h100-sxm-8"), "h100-sxm-8") << "the default profile";
  EXPECT_EQ(ProfileOfRun({"--profile", "local", "--junit", "r.xml"}, "h100-sxm-8"), "local");
  EXPECT_EQ(ProfileOfRun({"--profile=my.yaml"}, "h100-sxm-8"), "my.yaml");
  EXPECT_EQ(ProfileOfRun({"--profile", "a", "--profile", "b"}, "c"), "b") << "the last one, as the run reads it";
  EXPECT_EQ(ProfileOfRun({"--profile"}, "c"), "c") << "no value: the run will say so";
  const Profile local = test_support::Parsed(LoadProfile("local"));
  EXPECT_EQ(GpusPerNodeToAsk(std::nullopt, local), 8) << "local's slurm.gpus_per_node";
  EXPECT_EQ(GpusPerNodeToAsk(4, local), 4);
  EXPECT_EQ(GpusPerNodeToAsk(0, local), 0) << "--gpus-per-node=none";
  EXPECT_EQ(GpusPerNodeToAsk(std::nullopt, Profile{}), 0) << "a profile without a slurm section asks for none";
}

TEST(SrunLaunchRerun, LostNodesAreTheNewOnesEachOnceRefusalsFirst) {
  const std::vector<RefusedNode> refusals = {{"node1", "srun: error: Task launch for StepId=6.0 failed on node node1: x"}};
  const std::vector<RefusedNode> exited = {{"node3", "srun: error: node3: task 2: Exited with exit code 127"},
                                           {"node1", "srun: error: node1: task 0: Exited with exit code 1"}};
  const auto lost = LostNodes(refusals, exited, {{"node2", "earlier"}});
  ASSERT_EQ(lost.size(), 2u);
  EXPECT_EQ(lost[0].node, "node1");
  EXPECT_EQ(lost[0].slurm_error, refusals[0].slurm_error);
  EXPECT_EQ(lost[1].node, "node3");
  EXPECT_TRUE(LostNodes({}, {{"node2", "x"}}, {{"node2", "earlier"}}).empty()) << "already left out";
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
}  // namespace gpuconform
