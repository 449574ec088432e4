// MpiFaultIsolation from records that a search over a fault model wrote, replayed as a run's
// snapshot is: each kind of finding has its code and its entity, a pair or boundary names no
// node (so no drain plan drains one), and a healthy screen passes in one round.
#include "suites/allreduce/isolation_checks.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "fleet/drain_plan.h"
#include "suites/allreduce/allreduce_checks.h"
#include "suites/allreduce/blame.h"
#include "tests/support/test_support.h"

namespace gpuconform::allreduce {
namespace {

using isolation::Outcome;
using isolation::TestResult;

// The outcome of a test of `nodes` under a fault model.
using Oracle = std::function<Outcome(const std::set<std::string>& nodes)>;

// A search run to its end against `oracle`, written as the probe writes it and read back.
isolation::IsolationRecord Searched(int node_count, const Oracle& oracle, int round_budget = 0) {
  isolation::PlannerInput input;
  for (int i = 1; i <= node_count; ++i) input.nodes.push_back("node" + std::to_string(i));
  input.round_budget = round_budget;
  isolation::Planner planner(input);
  std::string text = isolation::FormatPlan(input) + isolation::FormatMeasure({"MPI_Allreduce", 8388608, 0.03, "x"});
  while (!planner.Done()) {
    const isolation::Round round = planner.NextRound();
    if (round.tests.empty()) break;
    std::vector<TestResult> results;
    for (const auto& test : round.tests) {
      const Outcome outcome = oracle({test.nodes.begin(), test.nodes.end()});
      results.push_back({outcome, outcome == Outcome::kPass ? 0.2 : outcome == Outcome::kSlow ? 0.021 : 0,
                         std::nullopt, std::nullopt});
    }
    text += isolation::FormatRound(round, results);
    planner.Record(results);
  }
  auto record = isolation::ParseIsolationRecords(text, "cluster/isolation.txt");
  EXPECT_TRUE(record.ok()) << record.error();
  return record.ok() ? *record : isolation::IsolationRecord{};
}

CheckResult Judged(const isolation::IsolationRecord& record) {
  const auto findings = isolation::Replay(record, "cluster/isolation.txt");
  EXPECT_TRUE(findings.ok()) << findings.error();
  return CheckFaultIsolation(record, findings.ok() ? *findings : std::vector<isolation::Finding>{});
}

std::vector<std::string> Codes(const CheckResult& result) {
  std::vector<std::string> codes;
  for (const auto& finding : result.findings) codes.push_back(finding.code.str());
  return codes;
}

TEST(MpiFaultIsolation, AHealthyScreenPassesInOneRound) {
  const auto record = Searched(8, [](const auto&) { return Outcome::kPass; });
  const CheckResult result = Judged(record);
  EXPECT_EQ(result.verdict, Verdict::kPass) << test_support::Describe({result});
  ASSERT_GE(result.measurements.size(), 2u);
  EXPECT_EQ(result.measurements[0].name, "isolation_rounds");
  EXPECT_EQ(result.measurements[0].value, "1");
  EXPECT_EQ(result.measurements[1].value, "1");
}

TEST(MpiFaultIsolation, ASlowNodeIsNamedWithTheTestsThatShowIt) {
  const auto record = Searched(8, [](const auto& nodes) { return nodes.count("node6") ? Outcome::kSlow : Outcome::kPass; });
  const CheckResult result = Judged(record);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(Codes(result), std::vector<std::string>{"isolated-slow-node"}) << test_support::Describe({result});
  EXPECT_EQ(result.findings[0].entity, "node6");
  const std::string& message = result.findings[0].message;
  EXPECT_EQ(message.rfind("node6: MPI_Allreduce of 8 MiB (floor 0.030 GB/s) is below its floor", 0), 0u) << message;
  EXPECT_NE(message.find(": node[1,6] slow 0.021 GB/s"), std::string::npos) << "a confirming test: " << message;
}

TEST(MpiFaultIsolation, AFailingNodeIsNamedAndDrained) {
  const auto record = Searched(8, [](const auto& nodes) { return nodes.count("node3") ? Outcome::kFail : Outcome::kPass; });
  const CheckResult result = Judged(record);
  ASSERT_EQ(Codes(result), std::vector<std::string>{"isolated-node"}) << test_support::Describe({result});
  EXPECT_EQ(result.findings[0].entity, "node3");
  const DrainPlan plan = PlanDrain({Stamped(result, "AllreduceBandwidth", kMpiFaultIsolation, "")},
                                   {"run", {"node1", "node2", "node3", "node4", "node5", "node6", "node7", "node8"},
                                    std::nullopt, std::nullopt, false});
  EXPECT_EQ(plan.NodesWith(DrainAction::kDrain), std::vector<std::string>{"node3"});
}

TEST(MpiFaultIsolation, APairIsNamedAsThePathAndNeitherNodeIsDrained) {
  const auto record = Searched(8, [](const auto& nodes) {
    return nodes.count("node2") && nodes.count("node7") ? Outcome::kFail : Outcome::kPass;
  });
  const CheckResult result = Judged(record);
  ASSERT_EQ(Codes(result), std::vector<std::string>{"isolated-pair"}) << test_support::Describe({result});
  EXPECT_EQ(result.findings[0].entity, "node2<->node7");
  EXPECT_NE(result.findings[0].message.find("neither node is drained"), std::string::npos);
  const DrainPlan plan = PlanDrain({Stamped(result, "AllreduceBandwidth", kMpiFaultIsolation, "")},
                                   {"run", {"node1", "node2", "node3", "node4", "node5", "node6", "node7", "node8"},
                                    std::nullopt, std::nullopt, false});
  EXPECT_TRUE(plan.NodesWith(DrainAction::kDrain).empty());
}

TEST(MpiFaultIsolation, ABoundaryNamesBothHalves) {
  const auto record = Searched(8, [](const auto& nodes) {
    bool low = false;
    bool high = false;
    for (const auto& node : nodes) (std::stoi(node.substr(4)) <= 4 ? low : high) = true;
    return low && high ? Outcome::kSlow : Outcome::kPass;
  });
  const CheckResult result = Judged(record);
  ASSERT_EQ(Codes(result), std::vector<std::string>{"isolated-boundary"}) << test_support::Describe({result});
  EXPECT_EQ(result.findings[0].entity, "node[1-4]<->node[5-8]");
  EXPECT_NE(result.findings[0].message.find("node[1-4] and node[5-8] each pass"), std::string::npos)
      << result.findings[0].message;
}

TEST(MpiFaultIsolation, ASearchCutShortIsInconclusiveNamingItsSuspects) {
  auto record = Searched(64, [](const auto& nodes) { return nodes.count("node9") ? Outcome::kFail : Outcome::kPass; });
  // Only the screen and the first split: as a run whose deadline passed then would record.
  std::vector<isolation::RecordedTest> kept;
  for (const auto& test : record.tests) {
    if (test.round <= 2) kept.push_back(test);
  }
  record.tests = kept;
  record.stopped_why = "the isolation's deadline (isolation.deadline_s = 60 s) would pass before round 3 ended";
  const CheckResult result = Judged(record);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_FALSE(result.findings.empty());
  for (const auto& finding : result.findings) EXPECT_EQ(finding.code, "isolation-inconclusive");
  EXPECT_EQ(result.findings[0].entity.rfind("suspects node", 0), 0u) << result.findings[0].entity;
  EXPECT_NE(result.findings[0].message.find("isolation.deadline_s = 60 s"), std::string::npos)
      << result.findings[0].message;
}

TEST(MpiFaultIsolation, ARecordWithoutTestsIsAnError) {
  isolation::IsolationRecord record;
  record.input.nodes = {"node1", "node2"};
  const CheckResult result = CheckFaultIsolation(record, {});
  EXPECT_EQ(result.verdict, Verdict::kError);
}

TEST(MpiFaultIsolation, ANodeTheGateLeftOutForAPairIsNotBlamed) {
  const auto record = Searched(8, [](const auto& nodes) {
    return nodes.count("node2") && nodes.count("node7") ? Outcome::kFail : Outcome::kPass;
  });
  const auto findings = isolation::Replay(record, "cluster/isolation.txt");
  ASSERT_TRUE(findings.ok());
  const auto traced = NodesTracedToLinks(*findings);
  EXPECT_EQ(traced.at("node7"), "node2<->node7");
  const CheckResult blame =
      CheckNoSlowNode({}, {{"node7", "node2 cannot connect to node7 at 10.20.0.7:40999 (No route to host)"}},
                      mpi_sweep::kSlowPairFraction, traced);
  ASSERT_EQ(blame.findings.size(), 1u);
  EXPECT_EQ(blame.findings[0].code, "fabric-unreachable");
  EXPECT_EQ(blame.findings[0].entity, "node2<->node7") << "the link, which no drain plan takes for a node";
  const CheckResult untraced =
      CheckNoSlowNode({}, {{"node7", "node2 cannot connect to node7 at 10.20.0.7:40999 (No route to host)"}});
  EXPECT_EQ(untraced.findings[0].entity, "node7") << "without the isolation's word, the node";
}

}  // namespace
}  // namespace gpuconform::allreduce
