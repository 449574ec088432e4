#include "app/terminal_printer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace gpuconform {
namespace {

CheckResult Case(const std::string& check, const std::string& node, Verdict verdict, const std::string& message = "") {
  CheckResult r = Passed("SlurmGres", check, node);
  r.verdict = verdict;
  if (!message.empty()) r.findings.push_back({"gres-count", node, message});
  return r;
}

TEST(TerminalReport, AggregatesPerNodeCasesIntoOneLineWithCounts) {
  const std::vector<CheckResult> results = {
      Case("GresCount", "node1", Verdict::kPass), Case("GresCount", "node2", Verdict::kFail, "node2: gpu:4, expected gpu:8"),
      Case("GresCount", "node3", Verdict::kPass)};
  const std::string text = RenderTerminalReport(results, {});
  EXPECT_NE(text.find("[  FAIL  ] GresCount"), std::string::npos) << text;
  EXPECT_NE(text.find("2/3 nodes conform, 1 non-conforming"), std::string::npos) << text;
  EXPECT_NE(text.find("node2: gpu:4, expected gpu:8"), std::string::npos) << text;
  EXPECT_EQ(text.find("\x1b["), std::string::npos) << "no colour unless asked";
}

TEST(TerminalReport, QuietShowsOnlyProblems) {
  const std::vector<CheckResult> results = {Case("A", "", Verdict::kPass), Case("B", "", Verdict::kError, "timeout")};
  const std::string text = RenderTerminalReport(results, {false, true});
  EXPECT_EQ(text.find(" A "), std::string::npos) << text;
  EXPECT_NE(text.find("[ ERROR  ] B"), std::string::npos) << text;
}

TEST(TerminalReport, ACauseSharedByManyNodesIsOneLineInHostlistNotation) {
  std::vector<CheckResult> results;
  for (int i = 1; i <= 1000; ++i) {
    const std::string node = fmt::format("gpu{:05d}", i);
    results.push_back(Case("GresCount", node, Verdict::kError, "the snapshot has no " + node + "/checkpoint.txt"));
  }
  results.push_back(Case("GresCount", "gpu01001", Verdict::kFail, "gpu01001: gpu:4, expected gpu:8"));
  const std::string text = RenderTerminalReport(results, {});
  EXPECT_NE(text.find("the snapshot has no gpu[00001-01000]/checkpoint.txt\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpu01001: gpu:4, expected gpu:8"), std::string::npos) << text;
  EXPECT_LT(std::count(text.begin(), text.end(), '\n'), 6) << text;
}

TEST(TerminalReport, AMessageWithoutItsNodeSaysWhichNodesAndANameIsMatchedWhole) {
  const std::vector<CheckResult> results = {Case("GresCount", "node1", Verdict::kFail, "gres.conf has no File="),
                                            Case("GresCount", "node2", Verdict::kFail, "gres.conf has no File="),
                                            Case("GresCount", "node10", Verdict::kFail, "node1 differs from node10")};
  const std::string text = RenderTerminalReport(results, {});
  EXPECT_NE(text.find("gres.conf has no File= (on 2 nodes: node[1-2])"), std::string::npos) << text;
  EXPECT_NE(text.find("node1 differs from node10"), std::string::npos) << "node1 is not node10's prefix: " << text;
}

TEST(TerminalReport, MeasuredNumbersStandBesideTheirFloors) {
  std::vector<CheckResult> results;
  for (const auto& [node, value] : {std::pair{"n1", "392.0"}, std::pair{"n2", "380.5"}, std::pair{"n3", "388"}}) {
    CheckResult r = Passed("NvSwitch", "P2pBandwidthAtFloor", node);
    r.measurements.push_back({std::string(node) + ".p2p_min_gb_per_s", value, "GB/s", ">= 360", "profile"});
    r.measurements.push_back({std::string(node) + ".driver", "535.129.03", "", "", ""});
    results.push_back(r);
  }
  const std::string text = RenderTerminalReport(results, {});
  EXPECT_NE(text.find("measured: p2p_min_gb_per_s 380.5-392 GB/s (>= 360; lowest n2)"), std::string::npos) << text;
  EXPECT_EQ(text.find("driver"), std::string::npos) << "a number without a bound is not shown: " << text;
}
}  // namespace
}  // namespace gpuconform
