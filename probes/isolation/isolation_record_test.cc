// cluster/isolation.txt: what a search writes reads back to the same input and results, a replay
// of it gives the same findings, and a damaged record is an error naming its line.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "probes/isolation/isolation_record.h"

namespace gpuconform::isolation {
namespace {

// Runs a search to the end on a fault model and returns the record it wrote and its findings.
std::pair<std::string, std::vector<Finding>> Recorded(const PlannerInput& input, const std::set<std::string>& bad,
                                                      const std::pair<std::string, std::string>& pair = {}) {
  Planner planner(input);
  std::string text = FormatPlan(input);
  while (!planner.Done()) {
    const Round round = planner.NextRound();
    if (round.tests.empty()) break;
    std::vector<TestResult> results;
    for (const auto& test : round.tests) {
      bool fails = false;
      bool has_a = false;
      bool has_b = false;
      for (const std::string& node : test.nodes) {
        fails = fails || bad.count(node) > 0;
        has_a = has_a || node == pair.first;
        has_b = has_b || node == pair.second;
      }
      fails = fails || (has_a && has_b);
      results.push_back(fails ? TestResult{Outcome::kFail, 0, Outcome::kPass, Outcome::kFail}
                              : TestResult{Outcome::kPass, 41.25, std::nullopt, std::nullopt});
    }
    text += FormatRound(round, results);
    planner.Record(results);
  }
  return {text, planner.Findings()};
}

PlannerInput Input(int count) {
  PlannerInput input;
  for (int i = 1; i <= count; ++i) input.nodes.push_back("gpu" + std::to_string(i));
  return input;
}

void ExpectSameFindings(const std::vector<Finding>& a, const std::vector<Finding>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].kind, b[i].kind);
    EXPECT_EQ(a[i].nodes, b[i].nodes);
    EXPECT_EQ(a[i].groups, b[i].groups);
    EXPECT_EQ(a[i].scope, b[i].scope);
    EXPECT_EQ(a[i].detail, b[i].detail);
    ASSERT_EQ(a[i].evidence.size(), b[i].evidence.size());
    for (std::size_t e = 0; e < a[i].evidence.size(); ++e) {
      EXPECT_EQ(a[i].evidence[e].round, b[i].evidence[e].round);
      EXPECT_EQ(a[i].evidence[e].test, b[i].evidence[e].test);
      EXPECT_EQ(a[i].evidence[e].outcome, b[i].evidence[e].outcome);
    }
  }
}

TEST(IsolationRecord, TestLinesUseTheRecordFormatWithAHostlist) {
  const Round round{2, {{{"gpu1", "gpu2", "gpu3", "gpu7"}, "split"}}};
  EXPECT_EQ(FormatRound(round, {{Outcome::kSlow, 12.5, std::nullopt, std::nullopt}}),
            "test round=2 test=0 purpose=split size=4 nodes=gpu[1-3,7] busbw_gb_per_s=12.500 outcome=slow\n");
}

TEST(IsolationRecord, AReplayOfTheRecordGivesTheSameFindings) {
  PlannerInput input = Input(64);
  input.seed_groups = {{"sw1", {"gpu1", "gpu2", "gpu3"}, "spine"}};
  input.known_good = {"gpu64"};
  input.round_budget = 30;
  for (const auto& [bad, pair] : std::vector<std::pair<std::set<std::string>, std::pair<std::string, std::string>>>{
           {{}, {}}, {{"gpu7"}, {}}, {{"gpu2", "gpu40", "gpu41"}, {}}, {{}, {"gpu5", "gpu33"}}}) {
    const auto [text, findings] = Recorded(input, bad, pair);
    const auto record = ParseIsolationRecords(text, "cluster/isolation.txt");
    ASSERT_TRUE(record.ok()) << record.error();
    EXPECT_EQ(record->input.nodes, input.nodes);
    EXPECT_EQ(record->input.round_budget, 30);
    ASSERT_EQ(record->input.seed_groups.size(), 1u);
    EXPECT_EQ(record->input.seed_groups[0].parent, "spine");
    EXPECT_EQ(record->input.known_good, input.known_good);
    const auto replayed = Replay(*record, "cluster/isolation.txt");
    ASSERT_TRUE(replayed.ok()) << replayed.error();
    ExpectSameFindings(findings, *replayed);
  }
  const auto [text, findings] = Recorded(input, {"gpu7"});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].scope, "inter-node") << "the scoped outcomes are read back";
}

TEST(IsolationRecord, ARecordCutShortReplaysToInconclusive) {
  const auto [text, findings] = Recorded(Input(32), {"gpu9"});
  const std::string first_two_rounds = text.substr(0, text.find(" round=3 ") == std::string::npos
                                                          ? text.size()
                                                          : text.rfind('\n', text.find(" round=3 ")) + 1);
  const auto record = ParseIsolationRecords(first_two_rounds, "isolation.txt");
  ASSERT_TRUE(record.ok()) << record.error();
  const auto replayed = Replay(*record, "isolation.txt");
  ASSERT_TRUE(replayed.ok()) << replayed.error();
  ASSERT_FALSE(replayed->empty());
  for (const Finding& finding : *replayed) EXPECT_EQ(finding.kind, FindingKind::kInconclusive);
  EXPECT_NE((*replayed)[0].detail.find("the record ends after round"), std::string::npos);
}

TEST(IsolationRecord, WhatWasMeasuredAndWhyTheSearchStoppedReadBack) {
  const auto [text, findings] = Recorded(Input(32), {"gpu9"});
  const std::string first_round = text.substr(0, text.find(" round=2 ") == std::string::npos
                                                     ? text.size()
                                                     : text.rfind('\n', text.find(" round=2 ")) + 1);
  const std::string why = "the isolation's deadline (isolation.deadline_s = 60 s) would pass before round 2 ended";
  const auto record = ParseIsolationRecords(
      first_round + FormatMeasure({"MPI_Allreduce", 8388608, 0.05, "measured on the local cluster"}) +
          FormatStopped(why),
      "isolation.txt");
  ASSERT_TRUE(record.ok()) << record.error();
  EXPECT_EQ(record->measure.collective, "MPI_Allreduce");
  EXPECT_EQ(record->measure.size_bytes, 8388608);
  EXPECT_DOUBLE_EQ(record->measure.floor_gb_per_s, 0.05);
  EXPECT_EQ(record->measure.floor_source, "measured on the local cluster");
  EXPECT_EQ(record->stopped_why, why);
  // The replay's inconclusive findings give the recorded reason, not a guess.
  const auto replayed = Replay(*record, "isolation.txt");
  ASSERT_TRUE(replayed.ok()) << replayed.error();
  ASSERT_FALSE(replayed->empty());
  EXPECT_EQ((*replayed)[0].kind, FindingKind::kInconclusive);
  EXPECT_NE((*replayed)[0].detail.find(why), std::string::npos) << (*replayed)[0].detail;
  // A measure without a floor writes none, and reads back as 0.
  const auto no_floor = ParseIsolationRecords(FormatMeasure({"MPI_Allreduce", 1048576, 0, ""}), "isolation.txt");
  ASSERT_TRUE(no_floor.ok()) << no_floor.error();
  EXPECT_EQ(no_floor->measure.floor_gb_per_s, 0);
  EXPECT_FALSE(ParseIsolationRecords("stopped\n", "isolation.txt").ok());
}

TEST(IsolationRecord, DamagedLinesAreErrorsNamingTheirLine) {
  const std::string plan = "plan round_budget=0 split_rounds=0 node_cap=0 first_split_groups=0 nodes=a1,a2,a3\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {plan + "test round=1 test=0 purpose=screen size=3 nodes=a[1-3] busbw_gb_per_s=1 outcome=maybe\n",
       "isolation.txt:2: outcome must be pass, fail or slow"},
      {plan + "test round=1 test=0 purpose=screen size=2 nodes=a[1-3] busbw_gb_per_s=1 outcome=pass\n",
       "isolation.txt:2: size=2 but nodes names 3"},
      {plan + "test round=x test=0 purpose=screen size=3 nodes=a[1-3] busbw_gb_per_s=1 outcome=pass\n",
       "isolation.txt:2:"},
      {plan + "test round=1 test=0 purpose=screen size=3 nodes=a[3-1] busbw_gb_per_s=1 outcome=pass\n",
       "isolation.txt:2:"},
      {plan + "tset round=1\n", "isolation.txt:2: unknown record"},
      {plan + plan, "isolation.txt:2: a second plan line"},
      {"test round=1 test=0 purpose=screen size=3 nodes=a[1-3] busbw_gb_per_s=1 outcome=pass\n",
       "isolation.txt: test lines without a plan line"},
      {plan + "test round=1 test=0 purpose=screen size=3 nodes=a[1-3] busbw_gb_per_s=fast outcome=pass\n",
       "isolation.txt:2:"},
  };
  for (const auto& [text, expected] : cases) {
    const auto record = ParseIsolationRecords(text, "isolation.txt");
    ASSERT_FALSE(record.ok()) << text;
    EXPECT_EQ(record.error().rfind(expected, 0), 0u) << record.error();
  }
  // Well-formed lines that are not the planner's test are a replay error.
  const auto wrong = ParseIsolationRecords(
      plan + "test round=1 test=0 purpose=screen size=2 nodes=a[1-2] busbw_gb_per_s=1 outcome=pass\n", "isolation.txt");
  ASSERT_TRUE(wrong.ok()) << wrong.error();
  const auto replayed = Replay(*wrong, "isolation.txt");
  ASSERT_FALSE(replayed.ok());
  EXPECT_NE(replayed.error().find("is not the planner's test 1.0"), std::string::npos) << replayed.error();
  const auto extra = ParseIsolationRecords(
      plan + "test round=1 test=0 purpose=screen size=3 nodes=a[1-3] busbw_gb_per_s=1 outcome=pass\n"
             "test round=2 test=0 purpose=split size=3 nodes=a[1-3] busbw_gb_per_s=1 outcome=pass\n",
      "isolation.txt");
  ASSERT_TRUE(extra.ok());
  EXPECT_FALSE(Replay(*extra, "isolation.txt").ok());
}

}  // namespace
}  // namespace gpuconform::isolation
