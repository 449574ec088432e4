// Tests of Slurm hostlist compression and of the Markdown summary for CI job pages.
#include "reports/markdown_summary.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/util/hostlist.h"
#include "probes/slurm/slurm_parse.h"

namespace gpuconform {
namespace {

// The cases as a live run of `node_count` nodes under `profile` that exited `exit_status`.
Run LiveRun(std::vector<CheckResult> cases, const std::string& profile, int node_count, int exit_status) {
  Run run;
  run.record.profile = profile;
  run.record.mode = "live";
  for (int i = 1; i <= node_count; ++i) run.record.nodes.push_back("node" + std::to_string(i));
  run.record.exit_status = exit_status;
  run.cases = std::move(cases);
  return run;
}

TEST(Hostlist, CompressesRunsKeepingPaddingAndOrder) {
  EXPECT_EQ(CompressHostlist({"node1", "node2", "node3"}), "node[1-3]");
  EXPECT_EQ(CompressHostlist({"node3", "node1", "node2", "node2"}), "node[1-3]") << "sorted, duplicates once";
  EXPECT_EQ(CompressHostlist({"node1", "node10", "node2"}), "node[1-2,10]");
  EXPECT_EQ(CompressHostlist({"gpu00001", "gpu00002", "gpu00007", "gpu00099"}), "gpu[00001-00002,00007,00099]");
  EXPECT_EQ(CompressHostlist({"node7"}), "node7");
  EXPECT_EQ(CompressHostlist({"login", "node1", "node2", "head"}), "login,node[1-2],head");
  EXPECT_EQ(CompressHostlist({"rack1-node1", "rack1-node2", "rack2-node1"}), "rack1-node[1-2],rack2-node1");
  EXPECT_EQ(CompressHostlist({}), "");
}

TEST(Hostlist, SlurmsExpansionGivesBackTheSameNames) {
  const std::vector<std::string> names = {"gpu00007", "gpu10000", "gpu00001", "gpu00002", "node1", "node10"};
  const std::string compressed = CompressHostlist(names);
  auto expanded = slurm::ExpandHostlist(compressed);
  ASSERT_TRUE(expanded) << compressed << ": " << expanded.error();
  std::vector<std::string> sorted_names = names;
  std::sort(sorted_names.begin(), sorted_names.end());
  std::vector<std::string> got = *expanded;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, sorted_names) << compressed;
}

TEST(Hostlist, TenThousandNodesBecomeOneRange) {
  std::vector<std::string> names;
  for (int i = 1; i <= 10000; ++i) {
    std::string number = std::to_string(i);
    names.push_back("gpu" + std::string(5 - number.size(), '0') + number);
  }
  EXPECT_EQ(CompressHostlist(names), "gpu[00001-10000]");
}

std::vector<CheckResult> FleetResults(int failing_nodes) {
  std::vector<CheckResult> results = {Passed("Munge", "KeyIdenticalOnAllNodes")};
  for (int i = 1; i <= failing_nodes; ++i) {
    const std::string node = "gpu" + std::to_string(i);
    results.push_back(Failed("SlurmGres", "GresMatchesHardware", node,
                             {{"gres-vs-hardware", node, node + ": gres/gpu 4 | hardware 8\nfix Gres="}}));
  }
  results.push_back(Errored("NvSwitch", "AllToAll", "gpu7", "tool-missing", "gpu7: nvidia-smi not found"));
  return results;
}

TEST(MarkdownSummary, NamesEachProblemOnceWithItsNodesAsAHostlist) {
  const std::string text = RenderMarkdownSummary(LiveRun(FleetResults(1000), "h100-sxm-8", 1000, 1));
  EXPECT_NE(text.find("## gpuconform: non-conformance found (exit 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("| `SlurmGres.GresMatchesHardware` | `gres-vs-hardware` | gpu[1-1000] |"), std::string::npos)
      << text;
  EXPECT_NE(text.find("gres/gpu 4 \\| hardware 8 fix Gres="), std::string::npos) << "one line, pipes escaped";
  EXPECT_NE(text.find("### Not evaluated"), std::string::npos);
  EXPECT_NE(text.find("| `NvSwitch.AllToAll` | `tool-missing` | gpu7 |"), std::string::npos);
  EXPECT_LT(text.size(), 2000u) << "a thousand failing nodes are one row";
}

TEST(MarkdownSummary, ManyDistinctProblemsAreCutAndCounted) {
  std::vector<CheckResult> results;
  for (std::size_t i = 0; i < kMaxSummaryRows + 7; ++i) {
    results.push_back(Failed("Suite", "Check" + std::to_string(i), "node1", {{"gres-vs-hardware", "node1", "x"}}));
  }
  const std::string text = RenderMarkdownSummary(LiveRun(results, "local", 1, 1));
  EXPECT_NE(text.find("… and 7 more"), std::string::npos) << text;
  EXPECT_EQ(text.find("Check" + std::to_string(kMaxSummaryRows) + "`"), std::string::npos);
}

TEST(MarkdownSummary, AConformingRunHasNoProblemTables) {
  const std::string text = RenderMarkdownSummary(LiveRun({Passed("Munge", "KeyIdenticalOnAllNodes")}, "local", 3, 0));
  EXPECT_NE(text.find("every evaluated check conforms (exit 0)"), std::string::npos);
  EXPECT_EQ(text.find("###"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform
