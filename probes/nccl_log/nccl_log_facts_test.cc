// The run's NCCL log is read once: NcclTransport judges it and AllreduceBandwidth cites it, and
// both get the one parse the facts layer cached for the run.
#include "probes/nccl_log/nccl_log_facts.h"

#include <gtest/gtest.h>

#include <memory>

#include "harness/core/snapshot_source.h"
#include "harness/core/suite_registry.h"
#include "tests/support/test_support.h"

namespace gpuconform::nccl_log {
namespace {

std::vector<const SuiteDefinition*> AllreduceAndNcclTransport() {
  std::vector<const SuiteDefinition*> suites;
  for (const auto* suite : SuiteRegistry::Instance().Suites()) {
    if (suite->name == "AllreduceBandwidth" || suite->name == "NcclTransport") suites.push_back(suite);
  }
  return suites;
}

TEST(NcclLogFacts, ReadingTheLogTwiceReturnsTheCachedParse) {
  ClusterRaw raw;
  raw.cluster["nccl-debug-log"] = {ProbeStatus::kOk,
                                   "node1:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
                                   "node1:1:1 [0] NCCL INFO Using network Socket\n",
                                   "cluster/nccl-debug.log", ""};
  const int before = NcclLogParseCount();
  const Result<NcclLog>& first = ReadNcclLog(raw);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(&ReadNcclLog(raw), &first);
  EXPECT_EQ(NcclLogParseCount() - before, 1);
}

TEST(NcclLogFacts, ALogThatWasNotObtainedSaysWhyAndIsNotParsed) {
  ClusterRaw raw;
  const int before = NcclLogParseCount();
  const Result<NcclLog>& log = ReadNcclLog(raw);
  ASSERT_FALSE(log);
  EXPECT_EQ(log.error(), "no cluster-wide nccl-debug-log output was collected");
  EXPECT_EQ(NcclLogParseCount(), before);
}

// AllreduceBandwidth (which cites the log when a floor fails) and NcclTransport (which judges
// it) evaluated together on a replayed snapshot holding one NCCL log: one parse.
TEST(NcclLogFacts, AllreduceAndNcclTransportShareOneParsePerRun) {
  const auto suites = AllreduceAndNcclTransport();
  ASSERT_EQ(suites.size(), 2u);
  auto snapshot = OpenSnapshot(test_support::FixtureDir("nccl-allreduce-slow-on-socket"));
  ASSERT_TRUE(snapshot) << snapshot.error();
  const ClusterRaw raw = ReplayLazily(std::shared_ptr<ProbeSource>(std::move(snapshot).value()), ProbesOf(suites));
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  const std::vector<RankInfo> ranks;
  const int before = NcclLogParseCount();
  const auto results = EvaluateSuites(suites, SuiteContext{raw, profile, ranks, false, ""});
  EXPECT_EQ(NcclLogParseCount() - before, 1);
  std::map<std::string, const CheckResult*> by_name;
  for (const auto& result : results) by_name[result.TestName()] = &result;
  // Both suites used the log: the efficiency failure cites it, and the transport check judged it.
  const CheckResult* efficiency = by_name.at("AllreduceBandwidth.NcclTestsEfficiencyAgainstFabric");
  ASSERT_EQ(efficiency->verdict, Verdict::kFail);
  EXPECT_NE(efficiency->findings[0].message.find("NCCL log: NET/Socket"), std::string::npos)
      << efficiency->findings[0].message;
  EXPECT_EQ(by_name.at("NcclTransport.InterNodeChannelsUseProfileNetwork")->verdict, Verdict::kFail);
}

}  // namespace
}  // namespace gpuconform::nccl_log
