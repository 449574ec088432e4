// CheckSmallMessageLatency: passes under the profile's ceiling and fails above it with
// collective-latency-high naming the time and the ceiling; skips where the profile has no
// ceiling for the table's node count or the table has no size of 64 KiB or less (saying
// which); a ceiling's size missing from a table that has the band is an error. On real
// published nccl-tests tables (GCP A3 Mega, AWS p5; skipped where the realdata folder is
// absent) it judges the 8 B row.
#include "suites/allreduce/latency_checks.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "probes/allreduce_sweep/latency_profile.h"
#include "probes/nccl_tests/nccl_tests_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::allreduce {
namespace {

using allreduce_sweep::LatencyCeiling;
using allreduce_sweep::LatencyCeilings;
using nccl_tests::BandwidthRow;
using nccl_tests::BandwidthTable;

Profile WithCeilings(std::vector<LatencyCeiling> ceilings) {
  Profile profile;
  profile.name = "test";
  profile.file = "test:latency";
  profile.Set(LatencyCeilings{std::move(ceilings)});
  return profile;
}

// A 3-node table with the latency band's 8 B and 64 KiB rows and one bandwidth row.
BandwidthTable Table(double time_at_8_bytes_us) {
  BandwidthTable table;
  table.origin = "cluster/mpi-allreduce.txt";
  table.nodes = 3;
  table.ranks = 3;
  table.rows = {BandwidthRow{8, time_at_8_bytes_us}, BandwidthRow{65536, 400}, BandwidthRow{1 << 20, 5000}};
  return table;
}

const LatencyCeiling k8Bytes{3, 8, 200, "measured on the local cluster"};

TEST(SmallMessageLatency, PassesUnderTheCeilingAndRecordsTheTime) {
  const CheckResult result = CheckSmallMessageLatency(Table(120), WithCeilings({k8Bytes}));
  EXPECT_EQ(result.verdict, Verdict::kPass);
  ASSERT_EQ(result.measurements.size(), 1u);
  EXPECT_EQ(result.measurements[0].name, "allreduce_time_us@8B");
  EXPECT_EQ(result.measurements[0].value, "120");
  EXPECT_EQ(result.measurements[0].threshold, "<= 200");
}

TEST(SmallMessageLatency, FailsAboveTheCeilingNamingTimeCeilingAndSource) {
  const CheckResult result = CheckSmallMessageLatency(Table(950.5), WithCeilings({k8Bytes}));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code.code(), "collective-latency-high");
  EXPECT_EQ(result.findings[0].entity, "cluster");
  EXPECT_NE(result.findings[0].message.find("one allreduce of 8 B took 950 us across 3 nodes, above the ceiling of 200 us"),
            std::string::npos)
      << result.findings[0].message;
  EXPECT_NE(result.findings[0].message.find("measured on the local cluster"), std::string::npos);
}

TEST(SmallMessageLatency, SkipsWithoutACeilingForTheNodeCount) {
  EXPECT_EQ(CheckSmallMessageLatency(Table(120), Profile{}).verdict, Verdict::kSkip);
  const CheckResult other = CheckSmallMessageLatency(Table(120), WithCeilings({{8, 8, 200, "s"}}));
  EXPECT_EQ(other.verdict, Verdict::kSkip);
  EXPECT_NE(other.findings[0].message.find("for 3 nodes (it has ceilings for 8 nodes)"), std::string::npos)
      << other.findings[0].message;
}

TEST(SmallMessageLatency, SkipsATableFromBeforeTheLatencyBand) {
  BandwidthTable table = Table(120);
  table.rows.erase(table.rows.begin(), table.rows.begin() + 2);
  const CheckResult result = CheckSmallMessageLatency(table, WithCeilings({k8Bytes}));
  EXPECT_EQ(result.verdict, Verdict::kSkip);
  EXPECT_NE(result.findings[0].message.find("no size of 64 KiB or less"), std::string::npos) << result.findings[0].message;
}

TEST(SmallMessageLatency, ACeilingsSizeMissingFromTheBandIsAnError) {
  const CheckResult result = CheckSmallMessageLatency(Table(120), WithCeilings({{3, 4096, 300, "s"}}));
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code.code(), "size-not-measured");
}

TEST(SmallMessageLatency, JudgesPublishedNcclTestsTablesAt8Bytes) {
  GPUCONFORM_REALDATA_OR_SKIP(realdata, "nccl-tests-output");
  // GCP A3 Mega, 2 x 8 H100 over GPUDirect-TCPXO: 135.8 us at 8 B (out-of-place).
  const std::string name = "gcp-a3mega-2node-h100-allreduce.txt";
  auto table = nccl_tests::ParseNcclTestsOutput(test_support::ReadFile(std::filesystem::path(realdata) / name), name);
  ASSERT_TRUE(table) << table.error();
  ASSERT_EQ(table->nodes, 2);
  EXPECT_EQ(CheckSmallMessageLatency(*table, WithCeilings({{2, 8, 200, "s"}})).verdict, Verdict::kPass);
  const CheckResult tight = CheckSmallMessageLatency(*table, WithCeilings({{2, 8, 100, "s"}}));
  ASSERT_EQ(tight.verdict, Verdict::kFail);
  EXPECT_NE(tight.findings[0].message.find("took 136 us across 2 nodes"), std::string::npos) << tight.findings[0].message;
}

}  // namespace
}  // namespace gpuconform::allreduce
