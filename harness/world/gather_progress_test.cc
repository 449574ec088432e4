// GatherProgress: what a terminated run still judges. Rank 0 holds the outputs taken so far,
// receives what the other ranks took through its inbox, and every output not taken says why.
#include <gtest/gtest.h>

#include <thread>

#include "harness/core/termination.h"
#include "harness/world/gather.h"

namespace gpuconform {
namespace {

const std::string kNotice = "the run was terminated by SIGTERM at 2026-12-07T09:00:05Z";

std::vector<ProbeSpec> TwoNodeProbesAndOneClusterProbe() {
  return {CommandProbe("uname", ProbeScope::kNode, "uname.txt", {"uname", "-r"}),
          CommandProbe("ibstat", ProbeScope::kNode, "ibstat.txt", {"ibstat"}),
          CommandProbe("sinfo", ProbeScope::kCluster, "sinfo.txt", {"sinfo"})};
}

RawOutput Ok(std::string text) { return RawOutput{ProbeStatus::kOk, std::move(text), "test", ""}; }

TEST(GatherProgress, EveryOutputNotTakenSaysTheRunWasTerminated) {
  GatherProgress so_far;
  so_far.Start(0, 1, {"node1"}, "", TwoNodeProbesAndOneClusterProbe(), DefaultRunOptions());
  so_far.KeepNode("node1", "uname", Ok("6.1.0"));
  const GatheredRun run = so_far.CollectWhatWeHave(std::chrono::milliseconds(100), kNotice);
  ASSERT_EQ(run.raw.nodes, std::vector<std::string>{"node1"});
  EXPECT_TRUE(run.raw.NodeOutput("node1", "uname").ok());
  EXPECT_EQ(run.raw.NodeOutput("node1", "uname").text, "6.1.0");
  const RawOutput cut = run.raw.NodeOutput("node1", "ibstat");
  EXPECT_EQ(cut.status, ProbeStatus::kFailed);
  EXPECT_NE(cut.detail.find(kTerminatedMarker), std::string::npos) << cut.detail;
  EXPECT_NE(cut.detail.find("node1: ibstat.txt was not taken"), std::string::npos) << cut.detail;
  const RawOutput cluster_cut = run.raw.ClusterOutput("sinfo");
  EXPECT_EQ(cluster_cut.status, ProbeStatus::kFailed);
  EXPECT_NE(cluster_cut.detail.find(kNotice), std::string::npos) << cluster_cut.detail;
}

TEST(GatherProgress, RankZeroReceivesWhatAnotherRankTookAndNamesTheNodeThatSentNothing) {
  GatherProgress root;
  std::string inbox = root.OpenInbox();
  ASSERT_FALSE(inbox.empty());
  inbox = "127.0.0.1" + inbox.substr(inbox.find(' '));  // loopback, whatever this host's name resolves to
  const std::vector<std::string> hosts = {"node1", "node2", "node3"};
  root.Start(0, 3, hosts, inbox, TwoNodeProbesAndOneClusterProbe(), DefaultRunOptions());
  root.KeepNode("node1", "uname", Ok("6.1.0"));
  root.KeepCluster("sinfo", Ok("gpu up"));
  std::thread rank1([&] {
    GatherProgress node2;
    node2.Start(1, 3, hosts, inbox, TwoNodeProbesAndOneClusterProbe(), DefaultRunOptions());
    node2.KeepNode("node2", "uname", Ok("6.1.1"));
    node2.KeepNode("node2", "ibstat", Ok("CA 'mlx5_0'"));
    node2.SendWhatWeHave(std::chrono::seconds(5));
  });
  // node3's rank never sends: rank 0 waits its deadline, then judges without it.
  const GatheredRun run = root.CollectWhatWeHave(std::chrono::milliseconds(3000), kNotice);
  rank1.join();
  EXPECT_EQ(run.raw.nodes, hosts);
  EXPECT_EQ(run.raw.NodeOutput("node2", "uname").text, "6.1.1");
  EXPECT_TRUE(run.raw.NodeOutput("node2", "ibstat").ok());
  EXPECT_TRUE(run.raw.ClusterOutput("sinfo").ok());
  EXPECT_FALSE(run.raw.NodeOutput("node1", "ibstat").ok());
  const RawOutput lost = run.raw.NodeOutput("node3", "uname");
  EXPECT_EQ(lost.status, ProbeStatus::kFailed);
  EXPECT_NE(lost.detail.find("node3: its outputs did not reach rank 0 before the run ended: " + kNotice),
            std::string::npos)
      << lost.detail;
}

TEST(GatherProgress, ARankWhosePartWentWithTheGatherSendsNothingMore) {
  GatherProgress node2;
  node2.Start(1, 2, {"node1", "node2"}, "127.0.0.1 1 1", TwoNodeProbesAndOneClusterProbe(), DefaultRunOptions());
  node2.MarkGathered();
  EXPECT_TRUE(node2.gathered());
  // Port 1 refuses: a send would take its whole deadline; none is tried.
  const auto started = std::chrono::steady_clock::now();
  node2.SendWhatWeHave(std::chrono::seconds(3));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(1));
}

TEST(GatherProgress, AProbeTheDeadlineLeavesNoTimeForIsNotStartedAndSaysSo) {
  const ProbeSpec dcgm = CommandProbe("dcgm-diag", ProbeScope::kNode, "dcgmi-diag.txt", {"dcgmi", "diag"}, 600000);
  EXPECT_FALSE(NotStartedForLackOfTime(dcgm, "node1", std::nullopt)) << "no deadline armed";
  EXPECT_FALSE(NotStartedForLackOfTime(dcgm, "node1", std::chrono::seconds(900)));
  const auto skipped = NotStartedForLackOfTime(dcgm, "node1", std::chrono::seconds(42));
  ASSERT_TRUE(skipped);
  EXPECT_EQ(skipped->status, ProbeStatus::kFailed);
  EXPECT_EQ(skipped->detail, std::string("node1: dcgmi-diag.txt ") + kNoTimeMarker +
                                 "42 s were left before the run's deadline, and it may take up to 600 s");
  EXPECT_NE(NotStartedForLackOfTime(dcgm, "", std::chrono::seconds(-3))->detail.find("0 s were left"),
            std::string::npos);
  // A short probe runs whatever is left: its timeout is its worst case, and the deadline stops it.
  const ProbeSpec uname = CommandProbe("uname", ProbeScope::kNode, "uname-r.txt", {"uname", "-r"}, 15000);
  EXPECT_FALSE(NotStartedForLackOfTime(uname, "node1", std::chrono::seconds(5)));
}

}  // namespace
}  // namespace gpuconform
