// The check catalogue: every registered check is declared once and can be judged.
#include "harness/suite_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace gpuconform {
namespace {

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
       [](const SuiteContext&, const std::string& node) { return Passed("Example", "PerNode", node); }},
      {"Cluster", "judged once", false,
       [](const SuiteContext&, const std::string& node) { return Failed("Example", "Cluster", node, {}); }},
  };
  ClusterRaw raw;
  raw.nodes = {"n1", "n2"};
  const Profile profile;
  const std::vector<RankInfo> ranks;
  const auto results = EvaluateSuite(suite, SuiteContext{raw, profile, ranks, false, ""});
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
       [](const SuiteContext&, const std::string& node) { return Passed("Good", "First", node); }},
      {"Second", "judged on every node", true,
       [](const SuiteContext&, const std::string& node) { return Passed("Good", "Second", node); }},
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

}  // namespace
}  // namespace gpuconform
