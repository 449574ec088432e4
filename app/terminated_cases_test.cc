// A terminated run's errors: those the termination caused say so with their own code; the
// verdicts judged from what was taken, and the errors of suites it did not cut, stand.
#include "app/terminated_cases.h"

#include <gtest/gtest.h>

#include "harness/core/termination.h"

namespace gpuconform {
namespace {

const std::string kNotice = "the run was terminated by SIGTERM at 2026-12-07T09:00:05Z";

TEST(TerminatedCases, ProbesNotTakenAreThoseWhoseDetailSaysTheRunWasTerminated) {
  ClusterRaw raw;
  raw.nodes = {"node1"};
  raw.node["node1"]["uname"] = RawOutput{ProbeStatus::kOk, "6.1", "node1", ""};
  raw.node["node1"]["torchrun"] = RawOutput{ProbeStatus::kFailed, "", "node1", "node1: torchrun.txt was not taken: " + kNotice};
  raw.node["node1"]["ibstat"] = RawOutput{ProbeStatus::kTimedOut, "", "node1", "node1: ibstat timed out"};
  raw.cluster["sinfo"] = RawOutput{ProbeStatus::kFailed, "", "sinfo", "sinfo.txt was not taken: " + kNotice};
  EXPECT_EQ(ProbesNotTaken(raw, kTerminatedMarker), (std::set<std::string>{"sinfo", "torchrun"}));
}

TEST(TerminatedCases, ErrorsTheTerminationCausedAreRunTerminatedAndTheRestStand) {
  std::vector<CheckResult> cases = {
      // An output not taken: its reader's error says so.
      Errored("Torchrun", "DataLoaderThroughput", "node1", "probe-failed", "node1: torchrun.txt was not taken: " + kNotice),
      // A conclusion of a suite that was cut short, in its own words.
      Errored("Torchrun", "MasterPortOpen", "", "not-reported", "no node reported the rendezvous port check"),
      // A failure judged from what was taken stands, even in a cut suite.
      Failed("Torchrun", "RanksSeeDevices", "node2", {{"torchrun-workers-failed", "node2", "rank 3 missing"}}),
      // An error of a suite the termination did not cut stands: its tool is missing.
      Errored("InfiniBand", "PortsActive", "node1", "tool-missing", "node1: ibstat is not installed"),
  };
  MarkCutCases(cases, {"Torchrun"}, {kTerminatedMarker, "run-terminated", kNotice});
  EXPECT_EQ(cases[0].findings[0].code.code(), "run-terminated");
  EXPECT_EQ(cases[0].findings[0].message, "node1: torchrun.txt was not taken: " + kNotice) << "said already";
  EXPECT_EQ(cases[1].findings[0].code.code(), "run-terminated");
  EXPECT_NE(cases[1].findings[0].message.find("no node reported the rendezvous port check (" + kNotice),
            std::string::npos)
      << cases[1].findings[0].message;
  EXPECT_EQ(cases[2].verdict, Verdict::kFail);
  EXPECT_EQ(cases[2].findings[0].code.code(), "torchrun-workers-failed");
  EXPECT_EQ(cases[3].findings[0].code.code(), "tool-missing");
}

TEST(TerminatedCases, AConfigurationErrorOfACutSuiteKeepsItsCode) {
  // Not tooling: a finding about the cluster, which the termination did not cause.
  std::vector<CheckResult> cases = {
      Errored("Torchrun", "LauncherStarted", "node1", "world-not-formed", "node1: the ranks did not form one world")};
  MarkCutCases(cases, {"Torchrun"}, {kTerminatedMarker, "run-terminated", kNotice});
  EXPECT_EQ(cases[0].findings[0].code.code(), "world-not-formed");
}

TEST(TerminatedCases, AWorldThatNeverFormedCutsWithItsOwnCode) {
  const std::string never = "the ranks never formed one world";
  std::vector<CheckResult> cases = {
      Errored("Munge", "DaemonReachable", "node1", "unparseable", "node1: munge-decode.txt was not taken: " + never)};
  MarkCutCases(cases, {"Munge"}, {never, "world-not-formed", never});
  EXPECT_EQ(cases[0].findings[0].code.code(), "world-not-formed");
  EXPECT_EQ(cases[0].findings[0].code.entry().fault_class, FaultClass::kConfiguration);
}

TEST(TerminatedCases, NodesThatSentNothingAreTheStepsNodesNoRankSentFrom) {
  GatheredRun run;
  run.raw.nodes = {"node1", "node2", "node3", "node4"};  // every node of the step
  run.ranks = {{0, "node1", ""}, {2, "node3", ""}};       // the parts that arrived
  EXPECT_EQ(NodesThatSentNothing(run), (std::vector<std::string>{"node2", "node4"}));
  run.ranks.push_back({1, "node2", ""});
  run.ranks.push_back({3, "node4", ""});
  EXPECT_TRUE(NodesThatSentNothing(run).empty());
}

}  // namespace
}  // namespace gpuconform
