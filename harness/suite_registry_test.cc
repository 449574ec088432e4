// The check catalogue: every registered check is declared once and can be judged.
#include "harness/suite_registry.h"

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
  return EvaluateSuite(suite, SuiteContext{raw, profile, ranks, false, ""});
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
      // A check without its own judge is judged by its suite's evaluate or by comparing every
      // node's reading, or never.
      EXPECT_TRUE(check.judge || suite->evaluate || check.compare_nodes)
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

// An evaluate's judgements keep the check and node its glue named, and belong to its suite.
TEST(CheckCatalogue, AnEvaluateNamesItsJudgementsAndTheHarnessAddsTheSuite) {
  SuiteDefinition suite;
  suite.name = "Together";
  suite.checks = {{"One", "judged with the others", true}};
  suite.evaluate = [](const SuiteContext&) {
    return std::vector<CheckResult>{Judged("One", "n1", Failed({{"bad-profile", "", "n1: wrong"}}))};
  };
  const auto results = EvaluateOn(suite, {"n1"});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].TestName(), "Together.One/n1");
  EXPECT_EQ(results[0].findings[0].entity, "n1");
}

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
