// A replay's absent snapshot files, said once (harness/core/snapshot_gaps.h).
#include <gtest/gtest.h>

#include "app/terminal_printer.h"
#include "harness/core/snapshot_gaps.h"

namespace gpuconform {
namespace {

CheckResult Absent(const std::string& suite, const std::string& check, const std::string& node, const std::string& path) {
  return Errored(suite, check, node, "file-absent", (node.empty() ? "" : node + ": ") + "the snapshot has no " + path);
}

TEST(SnapshotGaps, AbsentFilesAreNamedRelativeToTheSnapshotWithTheirNodes) {
  std::string node;
  EXPECT_EQ(AbsentFileIn("n1: the snapshot has no /s/snap/nodes/n1/uname-r.txt", &node), "nodes/*/uname-r.txt");
  EXPECT_EQ(node, "n1");
  EXPECT_EQ(AbsentFileIn("the snapshot has no snap/cluster/scontrol-show-node.txt"), "cluster/scontrol-show-node.txt");
  EXPECT_EQ(AbsentFileIn("n1: no key (the snapshot has no s/nodes/n1/munge-key.digest)"), "nodes/*/munge-key.digest");
  EXPECT_EQ(AbsentFileIn("n1: `uname -r` exited with status 1"), "");
}

TEST(SnapshotGaps, EachFileOnceWithTheChecksItLeavesUnjudged) {
  const std::vector<CheckResult> results = {
      Absent("SlurmGres", "GresRegistered", "", "s/cluster/scontrol-show-node.txt"),
      Absent("SlurmNodes", "NodeUsable", "", "s/cluster/scontrol-show-node.txt"),
      Absent("Software", "KernelVersionIdentical", "n1", "s/nodes/n1/uname-r.txt"),
      Absent("Software", "KernelVersionIdentical", "n2", "s/nodes/n2/uname-r.txt"),
      Errored("Munge", "DaemonReachable", "n1", "probe-failed", "n1: `munge -n` exited with status 1"),
  };
  const auto gaps = FindSnapshotGaps(results);
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[0].file, "cluster/scontrol-show-node.txt");
  EXPECT_EQ(gaps[0].checks, (std::vector<std::string>{"SlurmGres.GresRegistered", "SlurmNodes.NodeUsable"}));
  EXPECT_EQ(gaps[1].nodes, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_TRUE(OnlySnapshotGaps(results[0]));
  EXPECT_FALSE(OnlySnapshotGaps(results[4]));
  const auto lines = SnapshotGapLines(gaps, "local", "h100-sxm-8");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "nodes/*/uname-r.txt (n[1-2]): Software.KernelVersionIdentical (1 check)");
  EXPECT_EQ(lines[2],
            "capture them with `gpuconform capture --profile local --out DIR` under srun; this snapshot was captured "
            "under profile h100-sxm-8, whose probes differ");
  // The terminal says each absent file once, and keeps the other error's own message.
  const std::string report = RenderTerminalReport(results, {}) + RenderSnapshotGaps(results, "local", "", {});
  EXPECT_EQ(report.find("the snapshot has no"), std::string::npos) << report;
  EXPECT_NE(report.find("not judged: the snapshot lacks nodes/*/uname-r.txt"), std::string::npos) << report;
  EXPECT_NE(report.find("n1: `munge -n` exited with status 1"), std::string::npos) << report;
  EXPECT_TRUE(SnapshotGapLines({}, "local", "").empty());
}

TEST(SnapshotGaps, AReplayUnderAnotherProfileSaysSoOnEveryError) {
  std::vector<CheckResult> results = {
      Errored("Interfaces", "FabricReachable", "", "untested", "node1: not tested: the profile names no fabric interface"),
      Passed("Munge", "KeyIdenticalOnAllNodes")};
  NoteCaptureProfile(results, "local", "local");
  EXPECT_EQ(results[0].findings[0].message, "node1: not tested: the profile names no fabric interface");
  NoteCaptureProfile(results, "local", "h100-sxm-8");
  EXPECT_EQ(results[0].findings[0].message,
            "node1: not tested: the profile names no fabric interface (this snapshot was captured under profile "
            "h100-sxm-8 and is judged under local: `gpuconform capture --profile local --out DIR` records what this "
            "check needs)");
  EXPECT_TRUE(results[1].findings.empty());
}

}  // namespace
}  // namespace gpuconform
