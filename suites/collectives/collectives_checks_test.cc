// The Collectives suite: each busbw check failing below its floor (naming the collective, size,
// node count, measured and floor, and the likely cause: eth0 near its rate, else the cross-rail
// and spine links) and passing above it; MpiCollectivesCorrect failing on a wrong element; and,
// through the run's evaluator, each skip (no floor, no file, one rank) and error (the step
// failed, a malformed table).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/mpi_sweep/collective_tables.h"
#include "probes/mpi_sweep/collectives_profile.h"
#include "probes/mpi_sweep/mpi_collectives_probe.h"
#include "suites/collectives/collectives_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::collectives {
namespace {

using ::testing::HasSubstr;
using namespace gpuconform::mpi_sweep;

constexpr char kOrigin[] = "cluster/mpi-collectives.txt";

const Profile& Local() {
  static const Profile profile = test_support::BuiltinProfile("local");
  return profile;
}

// The local profile's floor for `collective` (the first one), which every test measures at.
CollectiveFloor FloorFor(const std::string& collective) {
  const auto floors = FloorsOf(Local().GetOrDefault<CollectiveFloors>(), collective);
  EXPECT_FALSE(floors.empty()) << collective;
  return floors.empty() ? CollectiveFloor{} : floors.front();
}

// One collective's table as the worker prints it, over `nodes` nodes (one rank each), with one
// row at the floor's size rounded as the worker rounds it.
std::string Table(const std::string& collective, double busbw_gb_per_s, long long wrong = 0, int nodes = 3) {
  const auto definition = allreduce_sweep::FindCollective(collective);
  std::vector<allreduce_sweep::SweepRank> ranks;
  for (int node = 1; node <= nodes; ++node) ranks.push_back({"node" + std::to_string(node), -1, "[host] CPU memory"});
  const long long size = allreduce_sweep::CollectiveSizeBytes(FloorFor(collective).size_bytes, nodes);
  const double algbw = busbw_gb_per_s * nodes / (nodes - 1);
  return CollectiveMarkerLine(collective) +
         allreduce_sweep::SweepTableHeader("gpuconform " + definition->mpi_call + " (float) on host buffers", ranks,
                                           nodes) +
         allreduce_sweep::FormattedRow(size, static_cast<double>(size) / (algbw * 1e3), algbw, busbw_gb_per_s,
                                       definition->redop, wrong);
}

CollectiveTables Tables(const std::string& text) {
  auto tables = ParseCollectiveTables(text, kOrigin);
  EXPECT_TRUE(tables) << tables.error();
  return tables ? *tables : CollectiveTables{};
}

TEST(CollectivesChecks, EachCollectiveFailsBelowItsFloorAndPassesAboveIt) {
  for (const char* collective : {"alltoall", "allgather", "reduce_scatter"}) {
    SCOPED_TRACE(collective);
    const CollectiveFloor floor = FloorFor(collective);
    const CheckResult fast =
        CheckCollectiveBusbwAtFloors(collective, Tables(Table(collective, floor.busbw_floor_gb_per_s * 2)), Local());
    EXPECT_EQ(fast.verdict, Verdict::kPass);
    ASSERT_EQ(fast.measurements.size(), 1u);
    EXPECT_EQ(fast.measurements[0].threshold, ">= " + fmt::format("{:g}", floor.busbw_floor_gb_per_s));
    EXPECT_EQ(std::string(fast.measurements[0].source), floor.source);

    const CheckResult slow =
        CheckCollectiveBusbwAtFloors(collective, Tables(Table(collective, floor.busbw_floor_gb_per_s * 0.9)), Local());
    ASSERT_EQ(slow.verdict, Verdict::kFail);
    ASSERT_EQ(slow.findings.size(), 1u);
    EXPECT_EQ(slow.findings[0].code, "collective-busbw-below-floor");
    EXPECT_THAT(slow.findings[0].message, HasSubstr(std::string(collective) + " busbw "));
    EXPECT_THAT(slow.findings[0].message, HasSubstr("across 3 nodes, 3 ranks, is below the floor of"));
    EXPECT_THAT(slow.findings[0].message, HasSubstr("(source: " + floor.source + ")"));
  }
}

TEST(CollectivesChecks, AFailureNearTheManagementRateSaysTheRanksSentOverIt) {
  const CheckResult result = CheckCollectiveBusbwAtFloors("alltoall", Tables(Table("alltoall", 0.008)), Local());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_THAT(result.findings[0].message, HasSubstr("alltoall busbw 0.008 GB/s at"));
  EXPECT_THAT(result.findings[0].message,
              HasSubstr("the ranks probably sent over eth0; set OMPI_MCA_btl_tcp_if_include=ens1"));
}

// A profile of one floor (and no nccl section, so no management NIC to diagnose).
Profile OneFloor(const std::string& collective, long long size_bytes, double floor_gb_per_s) {
  Result<Profile> profile =
      ParseProfile(fmt::format("name: one\ncollectives:\n  - collective: {}\n    nodes: 3\n    size_bytes: {}\n"
                               "    busbw_floor_gb_per_s: {}\n    source: a test\n",
                               collective, size_bytes, floor_gb_per_s),
                   "t.yaml");
  EXPECT_TRUE(profile) << profile.error();
  return profile ? *profile : Profile{};
}

TEST(CollectivesChecks, AFailureAboveTheManagementRatePointsAtTheSpine) {
  const Profile profile = OneFloor("allgather", 1048576, 40);
  const std::string text = CollectiveMarkerLine("allgather") +
                           allreduce_sweep::SweepTableHeader("gpuconform MPI_Allgather (float) on host buffers",
                                                             {{"a", -1, ""}, {"b", -1, ""}, {"c", -1, ""}}, 3) +
                           allreduce_sweep::FormattedRow(1048572, 100, 10.5, 7, "none", 0);
  const CheckResult result = CheckCollectiveBusbwAtFloors("allgather", Tables(text), profile);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_THAT(result.findings[0].message, HasSubstr("busbw 7.00 GB/s at 1 MiB (1048572 B) across 3 nodes"));
  EXPECT_THAT(result.findings[0].message, HasSubstr("look at the cross-rail and spine links"));
}

TEST(CollectivesChecks, ASizeTheSweepDidNotReachIsAnError) {
  const CheckResult result =
      CheckCollectiveBusbwAtFloors("alltoall", Tables(Table("alltoall", 5)), OneFloor("alltoall", 4294967296, 1));
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_THAT(result.findings[0].message, HasSubstr("no alltoall row at 4096 MiB (4294967292 B over 3 ranks)"));
}

TEST(CollectivesChecks, ATableOverOtherNodeCountsIsSkipped) {
  const CheckResult result = CheckCollectiveBusbwAtFloors("alltoall", Tables(Table("alltoall", 5, 0, 2)), Local());
  EXPECT_EQ(result.verdict, Verdict::kSkip);
  EXPECT_THAT(result.findings[0].message, HasSubstr("sets no alltoall busbw floor for 2 nodes (it has floors for 3"));
}

TEST(CollectivesChecks, AWrongElementFailsCorrectness) {
  const std::string tables = Table("alltoall", 1) + Table("allgather", 1, 12) + Table("reduce_scatter", 1);
  const CheckResult wrong = CheckCollectivesCorrect(Tables(tables));
  ASSERT_EQ(wrong.verdict, Verdict::kFail);
  ASSERT_EQ(wrong.findings.size(), 1u);
  EXPECT_EQ(wrong.findings[0].code, "collective-results-wrong");
  EXPECT_THAT(wrong.findings[0].message, HasSubstr("allgather delivered 12 wrong elements at"));
  const CheckResult right = CheckCollectivesCorrect(Tables(Table("alltoall", 1) + Table("allgather", 1)));
  EXPECT_EQ(right.verdict, Verdict::kPass);
  EXPECT_EQ(right.measurements.at(0).value, "2");
}

// ---- through the run's evaluator -------------------------------------------------------

std::map<std::string, CheckResult> Judge(const RawOutput& out, const Profile& profile = Local()) {
  ClusterRaw raw;
  raw.nodes = {"node1", "node2", "node3"};
  raw.cluster[MpiCollectivesProbe().id] = out;
  std::map<std::string, CheckResult> by_check;
  for (auto& result : test_support::JudgeRegistered(kSuite, raw, profile)) by_check.emplace(result.check, result);
  return by_check;
}

const char* const kChecks[] = {kMpiAlltoallBusbwAtFloors, kMpiAllgatherBusbwAtFloors, kMpiReduceScatterBusbwAtFloors,
                               kMpiCollectivesCorrect};

TEST(CollectivesSuite, AHealthyRunPassesEveryCheck) {
  const auto judged = Judge(test_support::OkOutput(Table("alltoall", 10) + Table("allgather", 10) +
                                                       Table("reduce_scatter", 10),
                                                   kOrigin));
  for (const char* check : kChecks) EXPECT_EQ(judged.at(check).verdict, Verdict::kPass) << check;
}

// Every check of the suite has `verdict`, its first finding `code` and a message holding `text`.
void ExpectEveryCheck(const std::map<std::string, CheckResult>& judged, Verdict verdict, const std::string& code,
                      const std::string& text) {
  for (const char* check : kChecks) {
    ASSERT_TRUE(judged.count(check)) << check;
    const CheckResult& result = judged.at(check);
    EXPECT_EQ(result.verdict, verdict) << check;
    ASSERT_FALSE(result.findings.empty()) << check;
    EXPECT_EQ(result.findings[0].code, code) << check;
    EXPECT_THAT(result.findings[0].message, HasSubstr(text)) << check;
  }
}

TEST(CollectivesSuite, AProfileWithoutFloorsSkipsEveryCheckBeforeReading) {
  ExpectEveryCheck(Judge({ProbeStatus::kFailed, "", kOrigin, "should not be read"},
                         test_support::BuiltinProfile("h100-sxm-8")),
                   Verdict::kSkip, "not-applicable", "profile h100-sxm-8 sets no");
}

TEST(CollectivesSuite, NoFileOrOneRankIsSkipped) {
  for (const auto& out : {RawOutput{ProbeStatus::kAbsent, "", kOrigin, "no cluster/mpi-collectives.txt"},
                          RawOutput{ProbeStatus::kToolMissing, "", kOrigin, "node1: one rank only: start gpuconform"}}) {
    ExpectEveryCheck(Judge(out), Verdict::kSkip, "not-applicable", out.detail);
  }
}

TEST(CollectivesSuite, AFailedStepIsAnErrorQuotingIt) {
  const std::string detail = "node1: the MPI collectives step on node[1-3] ended with exit status 3; it said: node2: "
                             "MPI_Alltoall of 67108860 B did not complete within 60 s";
  ExpectEveryCheck(Judge({ProbeStatus::kFailed, Table("alltoall", 10), kOrigin, detail}), Verdict::kError,
                   "not-measured", detail);
}

TEST(CollectivesSuite, AMalformedTableIsUnparseableAtItsLine) {
  ExpectEveryCheck(Judge(test_support::OkOutput(Table("alltoall", 10) + "      1048576  262144  float\n", kOrigin)),
                   Verdict::kError, "unparseable", std::string(kOrigin) + ":10:");
}

// The two runs recorded on the local cluster (3 nodes, one rank each): over ens1 every collective
// is above its floor; pinned to the 100 Mbit management NIC (OMPI_MCA_btl_tcp_if_include=eth0)
// every busbw check fails naming eth0, and the elements are still right.
TEST(CollectivesSuite, TheRecordedLocalRunsPassOverTheFabricAndFailOverEth0) {
  for (const char* check : kChecks) {
    const CheckResult fabric = test_support::CheckOnFixture(kSuite, check, "local-3node-collectives-ens1", Local());
    EXPECT_EQ(fabric.verdict, Verdict::kPass) << check;
  }
  for (const char* check : {kMpiAlltoallBusbwAtFloors, kMpiAllgatherBusbwAtFloors, kMpiReduceScatterBusbwAtFloors}) {
    const CheckResult eth0 = test_support::CheckOnFixture(kSuite, check, "local-3node-collectives-eth0", Local());
    EXPECT_EQ(eth0.verdict, Verdict::kFail) << check;
    ASSERT_FALSE(eth0.findings.empty()) << check;
    EXPECT_EQ(eth0.findings[0].code, "collective-busbw-below-floor") << check;
    EXPECT_THAT(eth0.findings[0].message, HasSubstr("eth0")) << check;
  }
  EXPECT_EQ(test_support::CheckOnFixture(kSuite, kMpiCollectivesCorrect, "local-3node-collectives-eth0", Local()).verdict,
            Verdict::kPass);
}

}  // namespace
}  // namespace gpuconform::collectives
