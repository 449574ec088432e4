// The drain plan's guards: what drains, what is kept, what the cap holds back, what resumes.
#include "fleet/drain_plan.h"

#include <gtest/gtest.h>

#include "fleet/slurm_node_actions.h"

namespace gpuconform {
namespace {

const std::vector<std::string> kNodes = {"node1", "node2", "node3", "node4"};

CheckResult GresFailure(const std::string& node) {
  return Failed("SlurmGres", "GresMatchesHardware", node,
                {{"gres-vs-hardware", node, node + ": Slurm says 8 GPUs, the node has 7 device files"}});
}

std::vector<SlurmNodeState> AllIdle() {
  return {{"node1", "IDLE", ""}, {"node2", "IDLE", ""}, {"node3", "IDLE", ""}, {"node4", "IDLE", ""}};
}

DrainPlanInputs Inputs(std::vector<SlurmNodeState> states = AllIdle()) {
  return DrainPlanInputs{"0123456789abcdef0123456789abcdef", kNodes, std::move(states), std::nullopt, false};
}

const DrainDecision* DecisionFor(const DrainPlan& plan, const std::string& node) {
  for (const auto& decision : plan.decisions) {
    if (decision.node == node) return &decision;
  }
  return nullptr;
}

TEST(DrainPlan, ConfigurationAndHardwareFailuresDrainWithGpuconformsReason) {
  const DrainPlan plan =
      PlanDrain({GresFailure("node2"),
                 Failed("NvSwitch", "AllLinksActive", "node4", {{"link-inactive", "node4/gpu3/link11", "down"}}),
                 Passed("SlurmGres", "GresMatchesHardware", "node1")},
                Inputs());
  EXPECT_EQ(plan.NodesWith(DrainAction::kDrain), (std::vector<std::string>{"node4", "node2"}))
      << "hardware first, then configuration";
  const DrainDecision* node2 = DecisionFor(plan, "node2");
  ASSERT_NE(node2, nullptr);
  EXPECT_EQ(node2->slurm_reason.rfind("gpuconform: gres-vs-hardware: node2: Slurm says 8 GPUs", 0), 0u)
      << node2->slurm_reason;
  EXPECT_NE(node2->slurm_reason.find("run=01234567"), std::string::npos);
  EXPECT_EQ(ExcludeHostlist(plan), "node[2,4]");
}

TEST(DrainPlan, ToolingErrorsSkipsRegressionsAndTheNodesOwnStateNeverDrain) {
  CheckResult regressed = Passed("AllreduceBandwidth", "MpiBusbwAtFloors", "node1");
  regressed.verdict = Verdict::kRegression;
  regressed.findings.push_back({"metric-regression", "node1", "busbw 20% below the baseline"});
  const DrainPlan plan =
      PlanDrain({Errored("SlurmGres", "GresMatchesHardware", "node1", "timed-out", "nvidia-smi timed out"),
                 Skipped("Pcie", "LinksAtMaxGenAndWidth", "node2", "no GPUs"), regressed,
                 Failed("SlurmNodes", "NodeUsable", "node3", {{"node-unusable", "node3", "node3 is DRAIN: maint"}})},
                Inputs());
  EXPECT_TRUE(plan.decisions.empty()) << RenderDrainPlanText(plan, false);
  EXPECT_EQ(ExcludeHostlist(plan), "");
}

TEST(DrainPlan, ClusterWideFindingDrainsTheNodeItNames) {
  const DrainPlan plan = PlanDrain(
      {Failed("Munge", "KeyIdenticalOnAllNodes", "", {{"key-differs", "node3", "node3's key differs"}})}, Inputs());
  EXPECT_EQ(plan.NodesWith(DrainAction::kDrain), std::vector<std::string>{"node3"});
}

TEST(DrainPlan, NodeOutOfServiceForAnotherReasonKeepsIt) {
  auto states = AllIdle();
  states[2] = {"node3", "MIXED+DRAIN", "maint [root@2026-12-04T19:32:18]"};
  states[1] = {"node2", "IDLE+DRAIN", "gpuconform: gres-vs-hardware: ... run=aaaaaaaa"};
  const DrainPlan plan = PlanDrain({GresFailure("node2"), GresFailure("node3")}, Inputs(states));
  ASSERT_NE(DecisionFor(plan, "node3"), nullptr);
  EXPECT_EQ(DecisionFor(plan, "node3")->action, DrainAction::kKeepReason);
  EXPECT_NE(DecisionFor(plan, "node3")->why.find("maint"), std::string::npos);
  EXPECT_EQ(DecisionFor(plan, "node2")->action, DrainAction::kAlreadyOurs);
  EXPECT_TRUE(plan.NodesWith(DrainAction::kDrain).empty());
}

TEST(DrainPlan, MaxDrainHoldsBackAndSaysWhat) {
  auto inputs = Inputs();
  inputs.cap = *ParseDrainCap("0");
  const DrainPlan none = PlanDrain({GresFailure("node1"), GresFailure("node2")}, inputs);
  EXPECT_TRUE(none.NodesWith(DrainAction::kDrain).empty());
  EXPECT_EQ(none.NodesWith(DrainAction::kHeldBack), (std::vector<std::string>{"node1", "node2"}));
  EXPECT_NE(none.cap_note.find("--max-drain 0 allows 0 drain(s) of 4"), std::string::npos) << none.cap_note;
  EXPECT_NE(none.cap_note.find("node[1-2]"), std::string::npos) << none.cap_note;

  inputs.cap = *ParseDrainCap("50%");
  const DrainPlan half = PlanDrain({GresFailure("node1"), GresFailure("node2"), GresFailure("node3")}, inputs);
  EXPECT_EQ(half.NodesWith(DrainAction::kDrain).size(), 2u);
  EXPECT_EQ(half.NodesWith(DrainAction::kHeldBack), std::vector<std::string>{"node3"});
}

TEST(DrainPlan, ResumesOnlyItsOwnDrainsThatConformNow) {
  auto states = AllIdle();
  states[0] = {"node1", "IDLE+DRAIN", "gpuconform: gres-vs-hardware: x run=aaaaaaaa"};
  states[1] = {"node2", "IDLE+DRAIN", "gpuconform: nvlink-down: y run=aaaaaaaa"};
  states[2] = {"node3", "DOWN+DRAIN", "maint"};
  auto inputs = Inputs(states);
  inputs.resume_passed = true;
  // node1's only failure is being drained: the state a resume ends.
  const DrainPlan plan = PlanDrain(
      {Passed("SlurmGres", "GresMatchesHardware", "node1"),
       Failed("SlurmNodes", "NodeUsable", "node1", {{"node-unusable", "node1", "node1 is IDLE+DRAIN"}}),
       GresFailure("node2"), Passed("SlurmGres", "GresMatchesHardware", "node3")},
      inputs);
  EXPECT_EQ(plan.NodesWith(DrainAction::kResume), std::vector<std::string>{"node1"});
}

TEST(DrainPlan, AppliedActionsAreRecordedAsPlannedInADryRun) {
  const DrainPlan plan = PlanDrain({GresFailure("node2")}, Inputs());
  const auto actions = ApplyDrainPlan(plan, false, false);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].outcome, "planned");
  EXPECT_EQ(actions[0].action, "drain");
}

TEST(DrainPlan, ReasonIsOneShortLineWithoutQuotes) {
  DrainCause cause{"node1", "link-inactive", "hardware", "NvSwitch.AllLinksActive/node1",
                   "link \"11\" is 'down'\nsecond line " + std::string(400, 'x')};
  const std::string reason = DrainReasonFor(cause, "feedfacecafebeef");
  EXPECT_LE(reason.size(), kMaxDrainReasonChars);
  EXPECT_EQ(reason.find('\n'), std::string::npos);
  EXPECT_EQ(reason.find('"'), std::string::npos);
  EXPECT_EQ(reason.find('\''), std::string::npos);
  EXPECT_EQ(reason.rfind("gpuconform: link-inactive: link 11 is down second line", 0), 0u) << reason;
  EXPECT_EQ(reason.substr(reason.size() - 13), " run=feedface");
}

TEST(DrainPlan, CapParsesCountsAndPercentagesAndRefusesTheRest) {
  EXPECT_EQ(ParseDrainCap("5")->LimitFor(100), 5);
  EXPECT_EQ(ParseDrainCap("10%")->LimitFor(1000), 100);
  EXPECT_EQ(ParseDrainCap("10%")->LimitFor(9), 0) << "a percentage rounds down: it is a cap";
  EXPECT_EQ(ParseDrainCap("0")->LimitFor(3), 0);
  for (const std::string bad : {"", "x", "-1", "150%", "%", "1.5", "5 %", "99999999999"}) {
    EXPECT_FALSE(ParseDrainCap(bad)) << bad;
  }
}

TEST(DrainPlan, OutOfServiceStatesAreRecognised) {
  EXPECT_TRUE((SlurmNodeState{"n", "IDLE+DRAIN", ""}).Drained());
  EXPECT_TRUE((SlurmNodeState{"n", "DOWN*", ""}).Drained());
  EXPECT_TRUE((SlurmNodeState{"n", "MIXED+DRAIN", ""}).Drained());
  EXPECT_FALSE((SlurmNodeState{"n", "IDLE", ""}).Drained());
  EXPECT_FALSE((SlurmNodeState{"n", "MIXED", ""}).Drained());
  EXPECT_FALSE((SlurmNodeState{"n", "IDLE", "gpuconform: x"}).OursToResume()) << "not drained: nothing to resume";
  EXPECT_FALSE((SlurmNodeState{"n", "IDLE+DRAIN", "maint gpuconform: x"}).OursToResume());
}

TEST(DrainPlan, StatesComeFromScontrolShowNode) {
  const auto states = SlurmNodeStatesFrom(
      "NodeName=node3 Arch=x86_64 CoresPerSocket=1\n   State=MIXED+DRAIN ThreadsPerCore=1\n"
      "   Reason=maint [root@2026-12-04T19:32:18]\n\nNodeName=node1 Arch=x86_64\n   State=IDLE ThreadsPerCore=1\n",
      "scontrol show node");
  ASSERT_TRUE(states) << states.error();
  ASSERT_EQ(states->size(), 2u);
  EXPECT_EQ((*states)[0].name, "node3");
  EXPECT_TRUE((*states)[0].Drained());
  EXPECT_EQ((*states)[0].reason.rfind("maint", 0), 0u);
  EXPECT_FALSE((*states)[1].Drained());
}

}  // namespace
}  // namespace gpuconform
