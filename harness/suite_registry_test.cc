// The check catalogue: every registered check is declared once and can be judged.
#include "harness/suite_registry.h"

#include <gtest/gtest.h>

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

TEST(CheckCatalogue, EveryCheckIsDeclaredOnceWithItsAssertionAndCanBeJudged) {
  const auto suites = SuiteRegistry::Instance().Suites();
  ASSERT_FALSE(suites.empty());
  std::set<std::string> names;
  for (const auto* suite : suites) {
    EXPECT_FALSE(suite->summary.empty()) << suite->name;
    for (const auto& check : suite->checks) {
      EXPECT_TRUE(names.insert(suite->name + "." + check.name).second) << suite->name << "." << check.name;
      EXPECT_FALSE(check.requirement.empty()) << suite->name << "." << check.name;
      // A check without its own judge is judged by its suite's evaluate, or never.
      EXPECT_TRUE(check.judge || suite->evaluate) << suite->name << "." << check.name << " has no judge";
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
  ClusterRaw raw;
  raw.nodes = {"n1", "n2"};
  const Profile profile;
  const std::vector<RankInfo> ranks;
  const auto results = EvaluateSuites({&good, &broken}, SuiteContext{raw, profile, ranks, false, ""});
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
