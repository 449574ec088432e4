// The check catalogue: every registered check is declared once and can be judged.
#include "harness/core/suite_registry.h"
#include "tests/support/registered_checks.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>

namespace gpuconform {
namespace {

// The cases one suite gives for these nodes under an empty profile.
std::vector<CheckResult> EvaluateOn(const SuiteDefinition& suite, std::vector<std::string> nodes) {
  ClusterRaw raw;
  raw.nodes = std::move(nodes);
  const Profile profile;
  const std::vector<RankInfo> ranks;
  return test_support::EvaluateOneSuite(suite, SuiteContext{raw, profile, ranks, false, ""});
}

// The run's path: the cases these suites give together for these nodes under an empty profile.
std::vector<CheckResult> EvaluateAllOn(const std::vector<const SuiteDefinition*>& suites,
                                       std::vector<std::string> nodes) {
  ClusterRaw raw;
  raw.nodes = std::move(nodes);
  const Profile profile;
  const std::vector<RankInfo> ranks;
  return EvaluateSuites(suites, SuiteContext{raw, profile, ranks, false, ""});
}

TEST(CheckCatalogue, EveryCheckIsDeclaredOnceWithItsAssertionAndCanBeJudged) {
  const auto suites = SuiteRegistry::Instance().Suites();
  ASSERT_FALSE(suites.empty());
  std::set<std::string> names;
  for (const auto* suite : suites) {
    EXPECT_FALSE(suite->summary.empty()) << suite->name;
    for (const auto& check : suite->checks) {
      EXPECT_TRUE(names.insert(suite->name + "." + check.name).second) << suite->name << "." << check.name;
      EXPECT_FALSE(check.requirement.empty()) << suite->name << "." << check.name;
      // A check without its own judge compares every node's reading, or is never judged.
      EXPECT_TRUE(check.judge || check.compare_nodes)
          << suite->name << "." << check.name << " has no judge";
      EXPECT_FALSE(check.compare_nodes && check.per_node) << suite->name << "." << check.name;
    }
  }
}

TEST(CheckCatalogue, AJudgedSuiteGivesOneCasePerNodeForPerNodeChecksAndOneForClusterChecks) {
  SuiteDefinition suite;
  suite.name = "Example";
  suite.checks = {
      {"PerNode", "judged on every node", true,
       [](const SuiteContext&, const std::string&) { return Passed(); }},
      {"Cluster", "judged once", false, [](const SuiteContext&, const std::string&) { return Failed({}); }},
  };
  const auto results = EvaluateOn(suite, {"n1", "n2"});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].TestName(), "Example.PerNode/n1");
  EXPECT_EQ(results[1].TestName(), "Example.PerNode/n2");
  EXPECT_EQ(results[2].TestName(), "Example.Cluster");
  EXPECT_EQ(results[2].verdict, Verdict::kFail);
}

// The run's path: judged suites node by node, then each suite's cases in its check order,
// one check's nodes together; a judge that throws turns only its own suite into internal errors.
TEST(CheckCatalogue, EvaluateSuitesOrdersCasesByCheckAndContainsAThrowingJudge) {
  SuiteDefinition good;
  good.name = "Good";
  good.checks = {
      {"First", "judged on every node", true,
       [](const SuiteContext&, const std::string&) { return Passed(); }},
      {"Second", "judged on every node", true, [](const SuiteContext&, const std::string&) { return Passed(); }},
  };
  SuiteDefinition broken;
  broken.name = "Broken";
  broken.checks = {{"Throws", "a defect", true, [](const SuiteContext&, const std::string&) -> CheckResult {
                      throw std::runtime_error("boom");
                    }}};
  const auto results = EvaluateAllOn({&good, &broken}, {"n1", "n2"});
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0].TestName(), "Good.First/n1");
  EXPECT_EQ(results[1].TestName(), "Good.First/n2");
  EXPECT_EQ(results[2].TestName(), "Good.Second/n1");
  EXPECT_EQ(results[3].TestName(), "Good.Second/n2");
  EXPECT_EQ(results[4].TestName(), "Broken.Throws");
  EXPECT_EQ(results[4].verdict, Verdict::kError);
  EXPECT_EQ(results[4].findings[0].code, "internal-error");
  EXPECT_NE(results[4].findings[0].message.find("boom"), std::string::npos);
}

// A check states only its judgement: the harness names the case from the definition, gives
// its findings the judged entity, skips a check that does not apply before it reads anything,
// and turns a failed read into the check's error.
TEST(CheckCatalogue, TheHarnessNamesEachJudgementSkipsWhatDoesNotApplyAndErrsOnAFailedRead) {
  int judged = 0;
  SuiteDefinition suite;
  suite.name = "Example";
  suite.checks = {
      {"Finds", "fails on n2", true,
       [](const SuiteContext&, const std::string& node) {
         return node == "n2" ? Errored("bad-profile", "n2 is odd") : Passed();
       }},
      {"NotHere", "does not apply", true,
       [&judged](const SuiteContext&, const std::string&) {
         ++judged;
         return Passed();
       },
       [](const SuiteContext&, const std::string& node) -> std::optional<std::string> {
         return "profile states nothing for " + node;
       }},
      {"Reads", "reads a fact first", false,
       ReadThenJudge([](const SuiteContext&, const std::string&) { return Result<int>(Error{"n1/file: unreadable"}); },
                     [&judged](const int&, const SuiteContext&, const std::string&) {
                       ++judged;
                       return Passed();
                     })},
  };
  const auto results = EvaluateOn(suite, {"n1", "n2"});
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[1].TestName(), "Example.Finds/n2");
  EXPECT_EQ(results[1].verdict, Verdict::kError);
  ASSERT_EQ(results[1].findings.size(), 1u);
  EXPECT_EQ(results[1].findings[0].entity, "n2");
  EXPECT_EQ(results[2].TestName(), "Example.NotHere/n1");
  EXPECT_EQ(results[2].verdict, Verdict::kSkip);
  EXPECT_EQ(results[2].findings[0].message, "profile states nothing for n1");
  EXPECT_EQ(results[4].TestName(), "Example.Reads");
  EXPECT_EQ(results[4].verdict, Verdict::kError);
  EXPECT_EQ(results[4].findings[0].code, "unavailable");
  EXPECT_EQ(results[4].findings[0].entity, "cluster");
  EXPECT_EQ(results[4].findings[0].message, "n1/file: unreadable");
  EXPECT_EQ(judged, 0) << "neither a check that does not apply nor one whose read failed is judged";
}

// A comparison of every node's reading reads each node in the node-by-node pass, from the facts
// the per-node checks parsed there (each node's fact parsed once in the run), and is judged
// after the last node, in its declared place; one that does not apply reads nothing.
TEST(CheckCatalogue, ANodeComparisonReadsEachNodeFromTheNodePassFactsAndIsJudgedInItsPlace) {
  int parsed = 0;
  int compared_reads = 0;
  const auto fact = [&parsed](const SuiteContext& context, const std::string& node) {
    return context.raw.facts.Get<std::string>("version", node, [&] {
      ++parsed;
      return node == "n2" ? std::string("2.0") : std::string("1.0");
    });
  };
  SuiteDefinition suite;
  suite.name = "Compare";
  suite.checks = {
      {"Identical", "every node reads the same", false, {}, {},
       CompareNodes<std::string>(
           [&](const SuiteContext& context, const std::string& node) {
             ++compared_reads;
             return fact(context, node);
           },
           [](const std::map<std::string, std::string>& readings, const SuiteContext&) {
             std::vector<Finding> findings;
             for (const auto& [node, version] : readings) {
               if (version != readings.begin()->second) findings.push_back({"bad-profile", node, node + ": " + version});
             }
             return FromFindings(findings);
           })},
      {"PerNode", "reads the same fact", true,
       [&](const SuiteContext& context, const std::string& node) {
         fact(context, node);
         return Passed();
       }},
      {"NotHere", "does not apply", false, {},
       [](const SuiteContext&, const std::string&) -> std::optional<std::string> { return "nothing to compare"; },
       CompareNodes<int>([&](const SuiteContext&, const std::string&) { return ++compared_reads; },
                         [](const std::map<std::string, int>&, const SuiteContext&) { return Passed(); })},
  };
  const auto results = EvaluateAllOn({&suite}, {"n1", "n2", "n3"});
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0].TestName(), "Compare.Identical");
  EXPECT_EQ(results[0].verdict, Verdict::kFail);
  ASSERT_EQ(results[0].findings.size(), 1u);
  EXPECT_EQ(results[0].findings[0].entity, "n2");
  EXPECT_EQ(results[1].TestName(), "Compare.PerNode/n1");
  EXPECT_EQ(results[4].TestName(), "Compare.NotHere");
  EXPECT_EQ(results[4].verdict, Verdict::kSkip);
  EXPECT_EQ(compared_reads, 3) << "each node read once, and nothing read for a check that does not apply";
  EXPECT_EQ(parsed, 3) << "the comparison reads the facts the node pass parsed, not its own copies";

  // A single suite's evaluation reads every node too, and judges the same.
  parsed = 0;
  compared_reads = 0;
  const auto alone = EvaluateOn(suite, {"n1", "n2", "n3"});
  ASSERT_EQ(alone.size(), 5u);
  EXPECT_EQ(alone[0].verdict, Verdict::kFail);
  EXPECT_EQ(alone[4].verdict, Verdict::kSkip);
  EXPECT_EQ(compared_reads, 3);
}

// Nodes that read alike share one kept reading, but every node is judged on its own: with more
// distinct readings than the comparison compares against, in any order, none is mixed up.
TEST(CheckCatalogue, ANodeComparisonJudgesEveryNodeOnItsOwnReadingHoweverManyDiffer) {
  ClusterRaw raw;
  std::map<std::string, int> expected;
  for (int n = 0; n < 60; ++n) {
    const std::string node = "node" + std::to_string(100 + n);
    raw.nodes.push_back(node);
    expected[node] = n < 20 ? 7 : (n * 37) % 13;  // a run of one reading, then 13 interleaved
  }
  std::map<std::string, int> judged;
  const auto comparison = CompareNodes<int>(
      [&expected](const SuiteContext&, const std::string& node) { return expected.at(node); },
      [&judged](const std::map<std::string, int>& readings, const SuiteContext&) {
        judged = readings;
        return Passed();
      })();
  const Profile profile;
  const std::vector<RankInfo> ranks;
  const SuiteContext context{raw, profile, ranks, false, ""};
  for (const auto& node : raw.nodes) comparison->Read(context, node);
  EXPECT_EQ(comparison->Judge(context).verdict, Verdict::kPass);
  EXPECT_EQ(judged, expected);
}

// A suite that judges its own nodes (the controller's): one case per listed node, in the list's
// order, nodes the run never reached included, and before the run's nodes are released.
TEST(EvaluateSuites, ASuiteWithItsOwnNodesJudgesEachListedNodeInItsPlace) {
  SuiteDefinition own;
  own.name = "Own";
  own.checks = {{.name = "A", .requirement = "", .per_node = true,
                 .judge = [](const SuiteContext&, const std::string& node) {
                   return node == "down9" ? Failed({{"node-unusable", node, node + ": down"}}) : Passed();
                 }},
                {.name = "Whole", .requirement = "", .per_node = false,
                 .judge = [](const SuiteContext&, const std::string&) { return Passed(); }}};
  own.judged_nodes = [](const SuiteContext&) { return JudgedNodes{{"n2", "down9", "n1"}, std::nullopt}; };
  SuiteDefinition run_nodes;
  run_nodes.name = "Run";
  run_nodes.checks = {{.name = "B", .requirement = "", .per_node = true,
                       .judge = [](const SuiteContext&, const std::string&) { return Passed(); }}};
  std::vector<std::string> names;
  for (const auto& result : EvaluateAllOn({&own, &run_nodes}, {"n1", "n2"})) names.push_back(result.TestName());
  EXPECT_EQ(names, (std::vector<std::string>{"Own.A/n2", "Own.A/down9", "Own.A/n1", "Own.Whole", "Run.B/n1",
                                             "Run.B/n2"}));
}

// Where a suite's own node list cannot be read, each of its checks is one case with that
// judgement, and the checks are never called.
TEST(EvaluateSuites, ASuiteWhoseNodeListIsUnavailableGivesOneErrorPerCheck) {
  SuiteDefinition suite;
  suite.name = "S";
  const CheckJudge never = [](const SuiteContext&, const std::string&) -> CheckResult {
    throw std::runtime_error("judged without its node list");
  };
  suite.checks = {{.name = "A", .requirement = "", .per_node = true, .judge = never},
                  {.name = "B", .requirement = "", .per_node = false, .judge = never}};
  suite.judged_nodes = [](const SuiteContext&) {
    return JudgedNodes{{}, Errored("no-controller-view", "scontrol: cannot reach slurmctld")};
  };
  const auto results = EvaluateAllOn({&suite}, {"n1", "n2"});
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) {
    EXPECT_EQ(result.verdict, Verdict::kError) << result.TestName();
    EXPECT_EQ(result.findings[0].code, "no-controller-view");
    EXPECT_EQ(result.node, "");
  }
  EXPECT_EQ(results[0].TestName(), "S.A");
  EXPECT_EQ(results[1].TestName(), "S.B");
}

// A suite whose cluster checks share every node's facts parses each node once for all of
// them; any other suite's cluster check parses them again.
TEST(EvaluateSuites, ClusterChecksThatShareNodeFactsParseEachNodeOnce) {
  for (const bool share : {true, false}) {
    int parses = 0;
    const CheckJudge read_every_node = [&parses](const SuiteContext& context, const std::string&) {
      for (const auto& node : context.raw.nodes) context.raw.facts.Get<int>("count", node, [&] { return ++parses; });
      return Passed();
    };
    SuiteDefinition suite;
    suite.name = "S";
    suite.checks = {{.name = "A", .requirement = "", .per_node = false, .judge = read_every_node},
                    {.name = "B", .requirement = "", .per_node = false, .judge = read_every_node}};
    suite.cluster_checks_share_node_facts = share;
    EvaluateAllOn({&suite}, {"n1", "n2", "n3"});
    EXPECT_EQ(parses, share ? 3 : 6) << (share ? "shared" : "not shared");
  }
}

TEST(EvaluateSuites, ASuiteThatThrowsBecomesErrorsNotACrash) {
  SuiteDefinition suite;
  suite.name = "S";
  suite.checks = {{.name = "A", .requirement = "", .per_node = true,
                   .judge = [](const SuiteContext&, const std::string& node) -> CheckResult {
                     if (node == "n2") throw std::runtime_error("boom");
                     return Passed();
                   }},
                  {.name = "B", .requirement = "", .per_node = false,
                   .judge = [](const SuiteContext&, const std::string&) { return Passed(); }}};
  const auto results = EvaluateAllOn({&suite}, {"n1", "n2", "n3"});
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) {
    EXPECT_EQ(result.verdict, Verdict::kError) << result.TestName();
    EXPECT_EQ(result.findings[0].code, "internal-error");
    EXPECT_NE(result.findings[0].message.find("boom"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpuconform
