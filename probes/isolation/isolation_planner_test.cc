// The isolation planner driven to the end against small fault models: each finding kind appears
// where its fault is and nowhere else; a healthy cluster costs one test; rounds are disjoint; the
// search is deterministic, stops at its budget saying so, and names no node that flaky results
// do not prove.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "probes/isolation/isolation_planner.h"

namespace gpuconform::isolation {
namespace {

using Oracle = std::function<TestResult(const std::vector<std::string>&)>;

struct Search {
  std::vector<Round> rounds;
  std::vector<std::vector<TestResult>> results;
  std::vector<Finding> findings;
};

Search Drive(const PlannerInput& input, const Oracle& oracle) {
  Planner planner(input);
  Search run;
  while (!planner.Done()) {
    Round round = planner.NextRound();
    if (round.tests.empty()) break;
    std::vector<TestResult> results;
    for (const auto& test : round.tests) results.push_back(oracle(test.nodes));
    planner.Record(results);
    run.rounds.push_back(std::move(round));
    run.results.push_back(std::move(results));
  }
  run.findings = planner.Findings();
  return run;
}

std::vector<std::string> Nodes(int count) {
  std::vector<std::string> nodes;
  for (int i = 1; i <= count; ++i) nodes.push_back("node" + std::to_string(i));
  return nodes;
}

PlannerInput Input(int count) {
  PlannerInput input;
  input.nodes = Nodes(count);
  return input;
}

bool Has(const std::vector<std::string>& nodes, const std::string& node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

TestResult Pass() { return {Outcome::kPass, 40, std::nullopt, std::nullopt}; }
TestResult Fail() { return {Outcome::kFail, 0, std::nullopt, std::nullopt}; }

Oracle BadNodes(std::set<std::string> bad) {
  return [bad](const std::vector<std::string>& nodes) {
    for (const std::string& node : nodes) {
      if (bad.count(node)) return Fail();
    }
    return Pass();
  };
}

Oracle BadPair(const std::string& a, const std::string& b) {
  return [a, b](const std::vector<std::string>& nodes) { return Has(nodes, a) && Has(nodes, b) ? Fail() : Pass(); };
}

std::vector<Finding> OfKind(const Search& run, FindingKind kind) {
  std::vector<Finding> out;
  for (const Finding& finding : run.findings) {
    if (finding.kind == kind) out.push_back(finding);
  }
  return out;
}

int TestCount(const Search& run) {
  int tests = 0;
  for (const Round& round : run.rounds) tests += static_cast<int>(round.tests.size());
  return tests;
}

TEST(IsolationPlanner, AHealthyClusterCostsOneRoundOfOneTest) {
  for (const int count : {2, 8, 232, 1000}) {
    const Search run = Drive(Input(count), BadNodes({}));
    ASSERT_EQ(run.rounds.size(), 1u) << count;
    ASSERT_EQ(run.rounds[0].tests.size(), 1u) << count;
    EXPECT_EQ(run.rounds[0].tests[0].nodes.size(), static_cast<std::size_t>(count));
    EXPECT_EQ(run.rounds[0].tests[0].purpose, "screen");
    EXPECT_TRUE(run.findings.empty()) << count;
  }
}

TEST(IsolationPlanner, EveryRoundsTestsAreDisjointAndOfTwoNodesOrMore) {
  const std::vector<Oracle> faults = {BadNodes({"node3"}), BadNodes({"node1", "node17", "node40", "node41", "node63"}),
                                      BadPair("node5", "node40"), BadPair("node7", "node8")};
  for (const Oracle& oracle : faults) {
    const Search run = Drive(Input(64), oracle);
    for (const Round& round : run.rounds) {
      std::set<std::string> seen;
      for (const auto& test : round.tests) {
        EXPECT_GE(test.nodes.size(), 2u);
        for (const std::string& node : test.nodes) EXPECT_TRUE(seen.insert(node).second) << node << " twice in round " << round.number;
      }
    }
  }
}

TEST(IsolationPlanner, ABadNodeIsNamedAfterFailingWithTwoDifferentGoodPartners) {
  const Search run = Drive(Input(64), BadNodes({"node23"}));
  ASSERT_EQ(run.findings.size(), 1u);
  const Finding& finding = run.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::kNode);
  EXPECT_EQ(finding.nodes, std::vector<std::string>{"node23"});
  ASSERT_GE(finding.evidence.size(), 2u);
  for (const Evidence& evidence : finding.evidence) EXPECT_EQ(evidence.outcome, Outcome::kFail);
  // The last two pieces of evidence: failing tests with good partners, not the same ones.
  const auto& last = run.rounds[finding.evidence.back().round - 1].tests[finding.evidence.back().test].nodes;
  const auto& before =
      run.rounds[finding.evidence[finding.evidence.size() - 2].round - 1].tests[finding.evidence[finding.evidence.size() - 2].test].nodes;
  EXPECT_EQ(last.size(), 2u);
  for (const std::string& node : last) {
    if (node != "node23") {
      EXPECT_FALSE(Has(before, node)) << "confirmed with the same partner " << node;
    }
  }
  EXPECT_TRUE(OfKind(run, FindingKind::kPair).empty());
  EXPECT_TRUE(OfKind(run, FindingKind::kBoundary).empty());
}

TEST(IsolationPlanner, SeveralBadNodesAreEachNamedWithinThePlannedRounds) {
  const std::set<std::string> bad = {"node2", "node77", "node78", "node150", "node231"};
  PlannerInput input = Input(232);
  const Search run = Drive(input, BadNodes(bad));
  std::set<std::string> named;
  for (const Finding& finding : run.findings) {
    EXPECT_EQ(finding.kind, FindingKind::kNode) << finding.detail;
    named.insert(finding.nodes.begin(), finding.nodes.end());
  }
  EXPECT_EQ(named, bad);
  EXPECT_LE(static_cast<int>(run.rounds.size()), DefaultSplitRounds(232));
  EXPECT_EQ(DefaultSplitRounds(232), 7);
}

TEST(IsolationPlanner, ASlowNodeIsASlowNodeAndAFailingOneIsNot) {
  const Oracle slow = [](const std::vector<std::string>& nodes) {
    return Has(nodes, "node11") ? TestResult{Outcome::kSlow, 24, std::nullopt, std::nullopt} : Pass();
  };
  const Search run = Drive(Input(32), slow);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].kind, FindingKind::kSlowNode);
  EXPECT_EQ(run.findings[0].nodes, std::vector<std::string>{"node11"});
  EXPECT_DOUBLE_EQ(run.findings[0].evidence.back().busbw_gb_per_s, 24);
  const Search failing = Drive(Input(32), BadNodes({"node11"}));
  ASSERT_EQ(failing.findings.size(), 1u);
  EXPECT_EQ(failing.findings[0].kind, FindingKind::kNode);
}

TEST(IsolationPlanner, TwoNodesThatFailOnlyTogetherAreAPairNeverTwoNodes) {
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {"node5", "node40"}, {"node7", "node8"}, {"node1", "node64"}}) {
    const Search run = Drive(Input(64), BadPair(a, b));
    ASSERT_EQ(run.findings.size(), 1u) << a << " " << b << ": " << run.findings[0].detail;
    EXPECT_EQ(run.findings[0].kind, FindingKind::kPair);
    EXPECT_EQ(std::set<std::string>(run.findings[0].nodes.begin(), run.findings[0].nodes.end()),
              (std::set<std::string>{a, b}));
  }
  const Search nodes = Drive(Input(64), BadNodes({"node5", "node40"}));
  EXPECT_TRUE(OfKind(nodes, FindingKind::kPair).empty());
  EXPECT_EQ(OfKind(nodes, FindingKind::kNode).size(), 2u);
}

PlannerInput Blocks(int count, int block) {
  PlannerInput input = Input(count);
  for (int start = 0; start < count; start += block) {
    SeedGroup group{"block" + std::to_string(start / block), {}, "spine1"};
    for (int i = start; i < std::min(count, start + block); ++i) group.nodes.push_back(input.nodes[i]);
    input.seed_groups.push_back(std::move(group));
  }
  return input;
}

Oracle Boundary(const PlannerInput& input, int a, int b) {
  const auto side_a = input.seed_groups[a].nodes;
  const auto side_b = input.seed_groups[b].nodes;
  return [side_a, side_b](const std::vector<std::string>& nodes) {
    const auto in = [&](const std::vector<std::string>& side) {
      return std::any_of(nodes.begin(), nodes.end(), [&](const std::string& node) { return Has(side, node); });
    };
    return in(side_a) && in(side_b) ? Fail() : Pass();
  };
}

TEST(IsolationPlanner, TwoGroupsThatPassAloneButFailTogetherAreABoundaryNamingBoth) {
  const PlannerInput input = Blocks(8, 4);  // node1-4 and node5-8, as on the local cluster
  const Search run = Drive(input, Boundary(input, 0, 1));
  ASSERT_EQ(run.findings.size(), 1u) << run.findings[0].detail;
  const Finding& finding = run.findings[0];
  EXPECT_EQ(finding.kind, FindingKind::kBoundary);
  EXPECT_EQ(finding.groups, (std::vector<std::string>{"block0", "block1"}));
  EXPECT_EQ(finding.shared, "spine1");
  EXPECT_EQ(finding.side_a, input.seed_groups[0].nodes);
  EXPECT_EQ(finding.side_b, input.seed_groups[1].nodes);
  // The second round tests the seed groups themselves.
  ASSERT_GE(run.rounds.size(), 2u);
  ASSERT_EQ(run.rounds[1].tests.size(), 2u);
  EXPECT_EQ(run.rounds[1].tests[0].nodes, input.seed_groups[0].nodes);

  const PlannerInput wide = Blocks(256, 16);
  const Search far = Drive(wide, Boundary(wide, 3, 12));
  ASSERT_EQ(far.findings.size(), 1u);
  EXPECT_EQ(far.findings[0].kind, FindingKind::kBoundary);
  EXPECT_EQ(far.findings[0].groups, (std::vector<std::string>{"block3", "block12"}));
  // A bad node in the same seed groups is a node, not a boundary.
  const Search node = Drive(wide, BadNodes({"node50"}));
  EXPECT_TRUE(OfKind(node, FindingKind::kBoundary).empty());
  ASSERT_EQ(OfKind(node, FindingKind::kNode).size(), 1u);
}

TEST(IsolationPlanner, PastTheRoundBudgetItReportsWhatItKnowsAndSaysSo) {
  PlannerInput input = Input(64);
  input.round_budget = 3;
  const Search run = Drive(input, BadNodes({"node23"}));
  EXPECT_EQ(run.rounds.size(), 3u);
  ASSERT_FALSE(run.findings.empty());
  for (const Finding& finding : run.findings) {
    EXPECT_EQ(finding.kind, FindingKind::kInconclusive);
    EXPECT_NE(finding.detail.find("round budget of 3 rounds ran out"), std::string::npos) << finding.detail;
  }
  const auto suspects = run.findings[0].nodes;
  EXPECT_TRUE(Has(suspects, "node23"));
  EXPECT_LT(suspects.size(), 64u);

  // Stop (a deadline) does the same between rounds.
  Planner planner(Input(64));
  const Round first = planner.NextRound();
  planner.Record({Fail()});
  planner.Stop("the deadline of 20 minutes passed");
  EXPECT_TRUE(planner.Done());
  ASSERT_EQ(planner.Findings().size(), 1u);
  EXPECT_EQ(planner.Findings()[0].kind, FindingKind::kInconclusive);
  EXPECT_EQ(planner.Findings()[0].nodes.size(), 64u);
  EXPECT_NE(planner.Findings()[0].detail.find("deadline"), std::string::npos);
}

TEST(IsolationPlanner, FlakyResultsEndInconclusiveAndNameNoHealthyNode) {
  // node9 fails every other test it is in.
  for (const int first : {0, 1}) {
    int seen = first;
    const Oracle flaky = [&seen](const std::vector<std::string>& nodes) {
      if (!Has(nodes, "node9")) return Pass();
      return seen++ % 2 == 0 ? Fail() : Pass();
    };
    const Search run = Drive(Input(32), flaky);
    for (const Finding& finding : run.findings) {
      if (finding.kind == FindingKind::kInconclusive) continue;
      EXPECT_EQ(finding.nodes, std::vector<std::string>{"node9"}) << FindingKindName(finding.kind);
    }
    if (first == 0) {
      EXPECT_FALSE(OfKind(run, FindingKind::kInconclusive).empty());
    }
  }
  // A node that passes a test after being named is not named.
  int calls = 0;
  const Oracle recovers = [&calls](const std::vector<std::string>& nodes) {
    ++calls;
    return Has(nodes, "node4") && calls < 6 ? Fail() : Pass();
  };
  const Search run = Drive(Input(16), recovers);
  EXPECT_TRUE(OfKind(run, FindingKind::kNode).empty());
  EXPECT_FALSE(OfKind(run, FindingKind::kInconclusive).empty());
}

TEST(IsolationPlanner, AFailureThatDoesNotComeBackIsNotSearchedForAPair) {
  int calls = 0;
  const Oracle once = [&calls](const std::vector<std::string>&) { return calls++ == 0 ? Fail() : Pass(); };
  const Search run = Drive(Input(16), once);
  ASSERT_EQ(run.rounds.size(), 3u);  // screen, its parts, the screen's nodes again
  EXPECT_EQ(run.rounds[2].tests[0].purpose, "recheck");
  EXPECT_EQ(run.rounds[2].tests[0].nodes.size(), 16u);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].kind, FindingKind::kInconclusive);
  EXPECT_NE(run.findings[0].detail.find("then passed"), std::string::npos) << run.findings[0].detail;
}

TEST(IsolationPlanner, IsDeterministic) {
  const auto once = Drive(Input(232), BadNodes({"node3", "node100", "node101"}));
  const auto again = Drive(Input(232), BadNodes({"node3", "node100", "node101"}));
  ASSERT_EQ(once.rounds.size(), again.rounds.size());
  for (std::size_t r = 0; r < once.rounds.size(); ++r) {
    ASSERT_EQ(once.rounds[r].tests.size(), again.rounds[r].tests.size());
    for (std::size_t t = 0; t < once.rounds[r].tests.size(); ++t) {
      EXPECT_EQ(once.rounds[r].tests[t].nodes, again.rounds[r].tests[t].nodes);
    }
  }
  EXPECT_EQ(TestCount(once), TestCount(again));
}

TEST(IsolationPlanner, TheNodeCapBoundsEveryTest) {
  PlannerInput input = Input(100);
  input.node_cap = 30;
  const Search healthy = Drive(input, BadNodes({}));
  ASSERT_EQ(healthy.rounds.size(), 1u);
  EXPECT_EQ(healthy.rounds[0].tests.size(), 4u);
  const Search run = Drive(input, BadNodes({"node77"}));
  for (const Round& round : run.rounds) {
    for (const auto& test : round.tests) EXPECT_LE(test.nodes.size(), 30u);
  }
  ASSERT_EQ(OfKind(run, FindingKind::kNode).size(), 1u);
  EXPECT_EQ(OfKind(run, FindingKind::kNode)[0].nodes[0], "node77");
}

TEST(IsolationPlanner, AFindingSaysWhetherNvlinkOrTheNetworkFailed) {
  const auto scoped = [](Outcome intra, Outcome inter) {
    return [intra, inter](const std::vector<std::string>& nodes) {
      if (!Has(nodes, "node6")) return TestResult{Outcome::kPass, 40, Outcome::kPass, Outcome::kPass};
      return TestResult{Outcome::kFail, 0, intra, inter};
    };
  };
  const Search nvlink = Drive(Input(16), scoped(Outcome::kFail, Outcome::kPass));
  ASSERT_EQ(nvlink.findings.size(), 1u);
  EXPECT_EQ(nvlink.findings[0].scope, "intra-node");
  const Search network = Drive(Input(16), scoped(Outcome::kPass, Outcome::kFail));
  ASSERT_EQ(network.findings.size(), 1u);
  EXPECT_EQ(network.findings[0].scope, "inter-node");
  const Search unmeasured = Drive(Input(16), BadNodes({"node6"}));
  EXPECT_EQ(unmeasured.findings[0].scope, "");
}

TEST(IsolationPlanner, KnownGoodNodesPartnerSuspectsOnASmallCluster) {
  PlannerInput input = Input(4);
  input.known_good = {"node1", "node4"};
  const Search run = Drive(input, BadNodes({"node2", "node3"}));
  std::set<std::string> named;
  for (const Finding& finding : OfKind(run, FindingKind::kNode)) named.insert(finding.nodes[0]);
  EXPECT_EQ(named, (std::set<std::string>{"node2", "node3"}));
  // With one good node a suspect cannot be confirmed with a second: inconclusive, never a guess.
  input.known_good = {"node1"};
  const Search one_good = Drive(input, BadNodes({"node2", "node3", "node4"}));
  EXPECT_TRUE(OfKind(one_good, FindingKind::kNode).empty());
  ASSERT_FALSE(OfKind(one_good, FindingKind::kInconclusive).empty());
  EXPECT_NE(OfKind(one_good, FindingKind::kInconclusive)[0].detail.find("no node known good"), std::string::npos);
}

TEST(IsolationPlanner, ASuspectsPartnerComesFromItsOwnSeedGroupWhereOneIsFree) {
  // node6 is bad; node1-4 and node5-8 are the seed groups. Taking the first good node free
  // (node1) would test node6 across the boundary between the groups, which a boundary fault
  // slows for every node: each confirmation of node6 takes its partner from node5, node7, node8.
  const PlannerInput input = Blocks(8, 4);
  const Search run = Drive(input, BadNodes({"node6"}));
  int partnered = 0;
  for (const Round& round : run.rounds) {
    for (const auto& test : round.tests) {
      // A confirmation: the suspect and one good partner (a halving may also hold two nodes).
      if (test.purpose != "confirm" || test.nodes.size() != 2 || !Has(test.nodes, "node6")) continue;
      ++partnered;
      const std::string& partner = test.nodes[0] == "node6" ? test.nodes[1] : test.nodes[0];
      EXPECT_TRUE(Has(input.seed_groups[1].nodes, partner)) << "round " << round.number << ": node6 with " << partner;
    }
  }
  EXPECT_GE(partnered, 1) << "node6 is confirmed with a good partner";
  ASSERT_EQ(OfKind(run, FindingKind::kNode).size(), 1u);
}

}  // namespace
}  // namespace gpuconform::isolation
