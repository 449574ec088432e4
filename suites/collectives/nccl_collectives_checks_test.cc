// The Collectives suite's NCCL checks, on tables and init lines as gpuconform's NCCL run writes
// them (cluster/nccl-collectives.txt, cluster/nccl-init.txt): each busbw check failing below its
// nccl_collectives floor and passing above it, NcclCollectivesCorrect failing on a wrong element,
// NcclInitWithinCeiling failing on a slow node and passing under the ceiling; and, through the
// run's evaluator, each skip (no floor, no ceiling, no GPUs) and error (NCCL missing under a GPU
// profile, a collective this NCCL lacks, a run that stopped).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/mpi_sweep/collective_tables.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_run/nccl_run_records.h"
#include "suites/collectives/collectives_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::collectives {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using nccl_run::NodeInit;

constexpr char kOrigin[] = "cluster/nccl-collectives.txt";

// A GPU profile with one NCCL floor per collective (2 nodes, 1 GiB) and an init ceiling.
const Profile& Gpus() {
  static const Profile profile = [] {
    std::string yaml = "name: gpus\ngpu:\n  present: true\n  count_per_node: 8\n  model_contains: H100\n"
                       "  source: a test\nnccl_collectives:\n";
    for (const char* collective : {"alltoall", "allgather", "reduce_scatter"}) {
      yaml += fmt::format("  - collective: {}\n    nodes: 2\n    size_bytes: 1073741824\n"
                          "    busbw_floor_gb_per_s: 40\n    source: a test floor\n",
                          collective);
    }
    yaml += "nccl_init:\n  ceiling_s: 30\n  source: a test ceiling\n";
    Result<Profile> parsed = ParseProfile(yaml, "gpus.yaml");
    EXPECT_TRUE(parsed) << parsed.error();
    return parsed ? *parsed : Profile{};
  }();
  return profile;
}

// One collective's table as the NCCL run writes it: 2 nodes of 8 GPUs, one row at 1 GiB.
std::string Table(const std::string& collective, double busbw_gb_per_s, long long wrong = 0) {
  const auto definition = allreduce_sweep::FindCollective(collective);
  std::vector<allreduce_sweep::SweepRank> ranks;
  for (const char* host : {"gpu-node-01", "gpu-node-02"}) {
    for (int g = 0; g < 8; ++g) ranks.push_back({host, g, "[0000:18:00.0]"});
  }
  const long long size = allreduce_sweep::CollectiveSizeBytes(1073741824, 16);
  const double algbw = busbw_gb_per_s * 16 / 15;
  return mpi_sweep::CollectiveMarkerLine(collective) +
         allreduce_sweep::SweepTableHeader("gpuconform NCCL " + collective + " (float) on GPU buffers, NCCL 2.21.5, CUDA 12.4",
                                           ranks, 2) +
         allreduce_sweep::FormattedRow(size, static_cast<double>(size) / (algbw * 1e3), algbw, busbw_gb_per_s,
                                       definition->redop, wrong);
}

nccl_run::NcclCollectiveResults Results(const std::string& text) {
  auto results = nccl_run::ParseNcclCollectives(text, kOrigin);
  EXPECT_TRUE(results) << results.error();
  return results ? *results : nccl_run::NcclCollectiveResults{};
}

std::vector<mpi_sweep::CollectiveFloor> Floors(const std::string& collective) {
  std::vector<mpi_sweep::CollectiveFloor> floors;
  for (const auto& floor : Gpus().GetOrDefault<nccl_run::NcclCollectiveFloors>().floors) {
    if (floor.collective == collective) floors.push_back(floor);
  }
  return floors;
}

TEST(NcclCollectivesChecks, EachCollectiveFailsBelowItsFloorAndPassesAboveIt) {
  for (const char* collective : {"alltoall", "allgather", "reduce_scatter"}) {
    SCOPED_TRACE(collective);
    const CheckResult fast = CheckCollectiveBusbwAtFloors(collective, Floors(collective),
                                                          Results(Table(collective, 45)).tables, Gpus(), NcclBackend());
    EXPECT_EQ(fast.verdict, Verdict::kPass);
    const CheckResult slow = CheckCollectiveBusbwAtFloors(collective, Floors(collective),
                                                          Results(Table(collective, 12)).tables, Gpus(), NcclBackend());
    ASSERT_EQ(slow.verdict, Verdict::kFail);
    EXPECT_EQ(slow.findings[0].code, "collective-busbw-below-floor");
    EXPECT_THAT(slow.findings[0].message, HasSubstr("across 2 nodes, 16 ranks, is below the floor of 40 GB/s"));
    EXPECT_THAT(slow.findings[0].message, HasSubstr("(source: a test floor)"));
    EXPECT_THAT(slow.findings[0].message, HasSubstr("NCCL_IB_HCA")) << "NCCL's variables, not Open MPI's";
    EXPECT_THAT(slow.findings[0].message, Not(HasSubstr("OMPI_MCA")));
  }
}

TEST(NcclCollectivesChecks, AWrongElementFailsCorrectnessAndNoneWrongPasses) {
  const CheckResult wrong =
      CheckCollectivesCorrect(Results(Table("alltoall", 45, 3) + Table("allgather", 45)).tables, NcclBackend());
  ASSERT_EQ(wrong.verdict, Verdict::kFail);
  EXPECT_EQ(wrong.findings[0].code, "collective-results-wrong");
  EXPECT_THAT(wrong.findings[0].message, HasSubstr("alltoall delivered 3 wrong elements"));
  EXPECT_EQ(CheckCollectivesCorrect(Results(Table("alltoall", 45)).tables, NcclBackend()).verdict, Verdict::kPass);
  const CheckResult none = CheckCollectivesCorrect({}, NcclBackend());
  EXPECT_EQ(none.verdict, Verdict::kError);
  EXPECT_THAT(none.findings[0].message, HasSubstr("gpuconform's NCCL run printed no table"));
}

TEST(NcclInitChecks, TheSlowestNodeAboveTheCeilingFailsNamedFirstAndUnderItPasses) {
  const nccl_run::NcclInitCeiling ceiling{30, "a test ceiling"};
  const std::vector<NodeInit> slow = {{"gpu-node-01", 4.2, ""}, {"gpu-node-02", 95.5, ""}, {"gpu-node-03", 31, ""}};
  const CheckResult failed = CheckNcclInitWithinCeiling(slow, ceiling);
  ASSERT_EQ(failed.verdict, Verdict::kFail);
  ASSERT_EQ(failed.findings.size(), 2u);
  EXPECT_EQ(failed.findings[0].code, "nccl-init-slow");
  EXPECT_EQ(failed.findings[0].entity, "gpu-node-02");
  EXPECT_THAT(failed.findings[0].message, HasSubstr("took 95.5 s, above the ceiling of 30 s (source: a test ceiling)"));
  EXPECT_THAT(failed.findings[0].message, HasSubstr("the slowest of 3 nodes (fastest 4.2 s)"));
  EXPECT_THAT(failed.findings[0].message, HasSubstr("NCCL_SOCKET_IFNAME"));
  EXPECT_EQ(failed.findings[1].entity, "gpu-node-03");
  ASSERT_FALSE(failed.measurements.empty());
  EXPECT_EQ(failed.measurements[0].name, "slowest_init_s");
  EXPECT_EQ(failed.measurements[0].value, "95.50");
  EXPECT_EQ(failed.measurements[0].threshold, "<= 30");

  const CheckResult passed = CheckNcclInitWithinCeiling({{"gpu-node-01", 4.2, ""}, {"gpu-node-02", 29.9, ""}}, ceiling);
  EXPECT_EQ(passed.verdict, Verdict::kPass);
  EXPECT_EQ(passed.measurements[0].value, "29.90");
}

TEST(NcclInitChecks, ANodeWhoseInitFailedIsAnErrorUnlessAnotherIsSlow) {
  const nccl_run::NcclInitCeiling ceiling{30, "a test ceiling"};
  const CheckResult failed =
      CheckNcclInitWithinCeiling({{"gpu-node-01", 4.2, ""}, {"gpu-node-02", std::nullopt, "gpu-node-02: timed out"}}, ceiling);
  EXPECT_EQ(failed.verdict, Verdict::kError);
  EXPECT_THAT(failed.findings[0].message, HasSubstr("gpu-node-02: NCCL communicator init did not complete"));
}

// ---- through the run's evaluator -------------------------------------------------------

std::map<std::string, CheckResult> Judge(const RawOutput& collectives, const RawOutput& init, const Profile& profile) {
  ClusterRaw raw;
  raw.nodes = {"gpu-node-01", "gpu-node-02"};
  raw.cluster[nccl_run::NcclCollectivesProbe().id] = collectives;
  raw.cluster[nccl_run::NcclInitProbe().id] = init;
  std::map<std::string, CheckResult> by_check;
  for (auto& result : test_support::JudgeRegistered(kSuite, raw, profile)) by_check.emplace(result.check, result);
  return by_check;
}

const char* const kNcclChecks[] = {kNcclAlltoallBusbwAtFloors, kNcclAllgatherBusbwAtFloors,
                                   kNcclReduceScatterBusbwAtFloors, kNcclCollectivesCorrect, kNcclInitWithinCeiling};

RawOutput InitOk(double slowest_s) {
  return test_support::OkOutput(nccl_run::FormatNcclInit({{"gpu-node-01", 3.5, ""}, {"gpu-node-02", slowest_s, ""}}),
                                "cluster/nccl-init.txt");
}

TEST(NcclCollectivesSuite, AHealthyRunPassesEveryCheckAndASlowOneFailsEach) {
  const auto healthy = Judge(test_support::OkOutput(Table("alltoall", 45) + Table("allgather", 45) +
                                                        Table("reduce_scatter", 45),
                                                    kOrigin),
                             InitOk(6), Gpus());
  for (const char* check : kNcclChecks) EXPECT_EQ(healthy.at(check).verdict, Verdict::kPass) << check;
  const auto slow = Judge(test_support::OkOutput(Table("alltoall", 4, 1) + Table("allgather", 4) +
                                                     Table("reduce_scatter", 4),
                                                 kOrigin),
                          InitOk(120), Gpus());
  for (const char* check : kNcclChecks) EXPECT_EQ(slow.at(check).verdict, Verdict::kFail) << check;
}

TEST(NcclCollectivesSuite, WithoutFloorsOrCeilingEveryCheckSkipsSayingSoNeverAPass) {
  Result<Profile> bare = ParseProfile("name: bare\ngpu:\n  present: true\n  count_per_node: 8\n  source: a test\n", "b.yaml");
  ASSERT_TRUE(bare) << bare.error();
  const auto judged = Judge({ProbeStatus::kFailed, "", kOrigin, "should not be read"},
                            {ProbeStatus::kFailed, "", "cluster/nccl-init.txt", "should not be read"}, *bare);
  for (const char* check : kNcclChecks) {
    const CheckResult& result = judged.at(check);
    EXPECT_EQ(result.verdict, Verdict::kSkip) << check;
    ASSERT_FALSE(result.findings.empty()) << check;
    EXPECT_THAT(result.findings[0].message, HasSubstr("profile bare sets no")) << check;
  }
  EXPECT_THAT(judged.at(kNcclAlltoallBusbwAtFloors).findings[0].message, HasSubstr("NCCL alltoall busbw floor"));
  EXPECT_THAT(judged.at(kNcclInitWithinCeiling).findings[0].message, HasSubstr("NCCL init ceiling"));
}

TEST(NcclCollectivesSuite, NcclMissingIsAnErrorUnderAGpuProfile) {
  const RawOutput missing{ProbeStatus::kToolMissing, "", "node1: gpuconform's NCCL run",
                          "NCCL cannot run here: gpu-node-01: libnccl.so.2 not found"};
  const auto judged = Judge(missing, missing, Gpus());
  for (const char* check : kNcclChecks) {
    EXPECT_EQ(judged.at(check).verdict, Verdict::kError) << check;
    EXPECT_THAT(judged.at(check).findings[0].message, HasSubstr("libnccl.so.2 not found")) << check;
  }
}

TEST(NcclCollectivesSuite, ACollectiveThisNcclLacksIsNotMeasuredQuotingWhy) {
  const std::string text =
      nccl_run::NotMeasuredComment("alltoall", "gpu-node-01: libnccl.so.2 lacks ncclSend, ncclRecv (NCCL older than 2.7)") +
      Table("allgather", 45) + Table("reduce_scatter", 45);
  const auto judged = Judge(test_support::OkOutput(text, kOrigin), InitOk(6), Gpus());
  const CheckResult& alltoall = judged.at(kNcclAlltoallBusbwAtFloors);
  EXPECT_EQ(alltoall.verdict, Verdict::kError);
  EXPECT_EQ(alltoall.findings[0].code, "not-measured");
  EXPECT_THAT(alltoall.findings[0].message, HasSubstr("lacks ncclSend, ncclRecv (NCCL older than 2.7)"));
  EXPECT_EQ(judged.at(kNcclAllgatherBusbwAtFloors).verdict, Verdict::kPass);
}

TEST(NcclCollectivesSuite, ARunThatStoppedIsAnErrorQuotingWhere) {
  const std::string detail = "gpu-node-02: the NCCL allgather of 1073741824 B did not complete within 60 s";
  const auto judged =
      Judge({ProbeStatus::kFailed, Table("alltoall", 45), kOrigin, detail}, InitOk(6), Gpus());
  for (const char* check : {kNcclAlltoallBusbwAtFloors, kNcclAllgatherBusbwAtFloors, kNcclCollectivesCorrect}) {
    EXPECT_EQ(judged.at(check).verdict, Verdict::kError) << check;
    EXPECT_THAT(judged.at(check).findings[0].message, HasSubstr(detail)) << check;
  }
  EXPECT_EQ(judged.at(kNcclInitWithinCeiling).verdict, Verdict::kPass) << "init is judged on its own";
}

}  // namespace
}  // namespace gpuconform::collectives
