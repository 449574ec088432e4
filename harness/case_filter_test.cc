#include "harness/case_filter.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "app/terminal_printer.h"

namespace gpuconform {
namespace {

TEST(CheckFilter, WholeCheckNameAlsoSelectsItsPerNodeCases) {
  EXPECT_EQ(ExpandCheckFilter("SlurmGres.GresCount"), "SlurmGres.GresCount:SlurmGres.GresCount/*");
  EXPECT_EQ(ExpandCheckFilter("Munge.*"), "Munge.*");
  EXPECT_EQ(ExpandCheckFilter(""), "*");
}

TEST(CheckFilter, NegativePartIsExpandedToo) {
  EXPECT_EQ(ExpandCheckFilter("*-Munge.KeyIdentical"), "*-Munge.KeyIdentical:Munge.KeyIdentical/*");
  EXPECT_EQ(ExpandCheckFilter("-A.B"), "*-A.B:A.B/*");
  EXPECT_EQ(ExpandCheckFilter("A.*:B.C-B.C/gpu-node-1"), "A.*:B.C:B.C/*-B.C/gpu-node-1");
}

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

TEST(ExitStatus, FailureBeatsErrorBeatsPass) {
  EXPECT_EQ(ExitStatusFor({Case("A", "", Verdict::kPass), Case("B", "", Verdict::kSkip)}), 0);
  EXPECT_EQ(ExitStatusFor({Case("A", "", Verdict::kPass), Case("B", "", Verdict::kError)}), 3);
  EXPECT_EQ(ExitStatusFor({Case("A", "", Verdict::kError), Case("B", "", Verdict::kFail)}), 1);
  EXPECT_EQ(ExitStatusFor({}), 0);
}

TEST(RunTotals, CountsChecksNotCases) {
  const auto totals = CountChecks({Case("A", "n1", Verdict::kPass), Case("A", "n2", Verdict::kFail),
                                   Case("B", "", Verdict::kSkip), Case("C", "", Verdict::kError)});
  EXPECT_EQ(totals.checks, 3);
  EXPECT_EQ(totals.cases, 4);
  EXPECT_EQ(totals.failed, 1);
  EXPECT_EQ(totals.skipped, 1);
  EXPECT_EQ(totals.errored, 1);
}

}  // namespace
}  // namespace gpuconform

#include "harness/suite_registry.h"

namespace gpuconform {
namespace {

TEST(EvaluateSuites, GroupsEachChecksCasesInDeclaredOrder) {
  SuiteDefinition suite;
  suite.name = "S";
  suite.checks = {{"A", "", true}, {"B", "", true}};
  suite.evaluate = [](const SuiteContext&) {
    return std::vector<CheckResult>{Passed("S", "B", "n1"), Passed("S", "A", "n1"), Passed("S", "B", "n2"),
                                    Passed("S", "A", "n2")};
  };
  ClusterRaw raw;
  Profile profile;
  const std::vector<RankInfo> ranks;
  const auto results = EvaluateSuites({&suite}, SuiteContext{raw, profile, ranks, false, ""});
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].TestName(), "S.A/n1");
  EXPECT_EQ(results[1].TestName(), "S.A/n2");
  EXPECT_EQ(results[2].TestName(), "S.B/n1");
  EXPECT_EQ(results[3].TestName(), "S.B/n2");
}

TEST(EvaluateSuites, ASuiteThatThrowsBecomesErrorsNotACrash) {
  SuiteDefinition suite;
  suite.name = "S";
  suite.checks = {{"A", "", false}};
  suite.evaluate = [](const SuiteContext&) -> std::vector<CheckResult> { throw std::runtime_error("boom"); };
  ClusterRaw raw;
  Profile profile;
  const std::vector<RankInfo> ranks;
  const auto results = EvaluateSuites({&suite}, SuiteContext{raw, profile, ranks, false, ""});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].verdict, Verdict::kError);
  EXPECT_NE(results[0].findings[0].message.find("boom"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform

namespace gpuconform {
namespace {

TEST(CheckFilter, MaySelectJudgesSuitesFromThePositivePatterns) {
  EXPECT_TRUE(FilterMaySelect("*", "Munge", "KeyIdenticalOnAllNodes"));
  EXPECT_TRUE(FilterMaySelect("Munge.*", "Munge", "KeyIdenticalOnAllNodes"));
  EXPECT_FALSE(FilterMaySelect("Munge.*", "AllreduceBandwidth", "MpiBusbwAtFloors"));
  EXPECT_TRUE(FilterMaySelect("SlurmGres.GresRegistered/node2", "SlurmGres", "GresRegistered"));
  EXPECT_FALSE(FilterMaySelect("SlurmGres.GresRegistered/node2", "SlurmGres", "GresMatchesProfile"));
  EXPECT_TRUE(FilterMaySelect("*-Munge.*", "Munge", "DaemonReachable")) << "negative parts never drop probes";
  EXPECT_TRUE(FilterMaySelect("Slurm?odes.*", "SlurmNodes", "NodeUsable"));
}

TEST(FilterAlsoSelecting, AddsTheCheckToThePositivePartOnly) {
  EXPECT_EQ(FilterAlsoSelecting("Checkpoint.*", "Launch.WorldFormed"), "Checkpoint.*:Launch.WorldFormed");
  EXPECT_EQ(FilterAlsoSelecting("Munge.*-Munge.Clock*", "Launch.WorldFormed"),
            "Munge.*:Launch.WorldFormed-Munge.Clock*");
  EXPECT_EQ(FilterAlsoSelecting("", "Launch.WorldFormed"), "") << "an empty filter already selects everything";
  EXPECT_EQ(FilterAlsoSelecting("-Slurm*", "Launch.WorldFormed"), "-Slurm*");
  EXPECT_TRUE(FilterMaySelect(FilterAlsoSelecting("Checkpoint.*", "Launch.WorldFormed"), "Launch", "WorldFormed"));
}

// The selection every report shows is made once, in GoogleTest's filter syntax: a whole check
// name selects its per-node cases, a negative part wins, '?' and '*' match as GoogleTest's do,
// and the selected cases keep their order.
TEST(SelectCases, SelectsAsGoogleTestsFilterWouldInTheirOrder) {
  const std::vector<CheckResult> cases = {Passed("Munge", "KeyIdentical"),        Passed("Munge", "Daemon", "node1"),
                                          Passed("Munge", "Daemon", "gpu-node-2"), Passed("SlurmGres", "Gres", "node1"),
                                          Passed("SlurmNodes", "Usable", "node1")};
  auto names = [&](const std::string& filter) {
    std::vector<std::string> selected;
    for (const auto& result : SelectCases(cases, filter)) selected.push_back(result.TestName());
    return selected;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(names("*").size(), cases.size());
  EXPECT_EQ(names(""), names("*"));
  EXPECT_EQ(names("Munge.Daemon"), (Names{"Munge.Daemon/node1", "Munge.Daemon/gpu-node-2"}));
  EXPECT_EQ(names("Munge.*-Munge.Daemon/gpu-node-2"), (Names{"Munge.KeyIdentical", "Munge.Daemon/node1"}));
  EXPECT_EQ(names("-Munge.*"), (Names{"SlurmGres.Gres/node1", "SlurmNodes.Usable/node1"}));
  EXPECT_EQ(names("Slurm?res.*:Munge.Key*"), (Names{"Munge.KeyIdentical", "SlurmGres.Gres/node1"}));
  EXPECT_TRUE(names("Nothing.*").empty());
  EXPECT_FALSE(FilterSelects("Munge.Key", "Munge.KeyIdentical")) << "a pattern matches the whole name";
}

}  // namespace
}  // namespace gpuconform
