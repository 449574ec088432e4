// NvSwitch.NvlinkErrorCountersWithinLimits: a clean node passes; a link that retrained, one over
// its CRC or replay limit, and one rising faster than the profile's rate since the node's
// previous run fail, naming the GPU and the link; a GPU that keeps no counters skips.
#include "suites/nvswitch/nvlink_error_checks.h"

#include <gtest/gtest.h>

#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::nvswitch {
namespace {

nvidia_smi::NvlinkErrorReport Report(const std::string& links_of_gpu0) {
  return test_support::Parsed(
      nvidia_smi::ParseNvlinkErrors("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-abc)\n" + links_of_gpu0, "n1/e.txt"));
}

std::string Link(int link, int replay, int recovery, int crc) {
  return "\t Link " + std::to_string(link) + ": Replay Errors: " + std::to_string(replay) + "\n\t Link " +
         std::to_string(link) + ": Recovery Errors: " + std::to_string(recovery) + "\n\t Link " +
         std::to_string(link) + ": CRC Errors: " + std::to_string(crc) + "\n";
}

bool AnyMessageHas(const CheckResult& result, const std::string& code, const std::string& part) {
  for (const auto& finding : result.findings) {
    if (finding.code == code && finding.message.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(NvlinkErrorCounters, CleanLinksPassAndCountsWithinTheirLimitsAreRecorded) {
  const CheckResult clean = CheckNvlinkErrorCounters("n1", Report(Link(0, 0, 0, 0) + Link(1, 100, 0, 99)));
  EXPECT_EQ(clean.verdict, Verdict::kPass);
  ASSERT_EQ(clean.measurements.size(), 2u);
  EXPECT_EQ(clean.measurements[0].name, "n1/gpu0/link1.crc_errors");
  EXPECT_EQ(clean.measurements[0].unit, "errors");
  EXPECT_EQ(clean.measurements[0].threshold, "<= 100");
}

TEST(NvlinkErrorCounters, ARecoveryAndCountsOverTheLimitFailNamingGpuAndLink) {
  const CheckResult result = CheckNvlinkErrorCounters("n1", Report(Link(3, 0, 1, 0) + Link(7, 101, 0, 250)));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_EQ(result.findings[0].code, "nvlink-recovery");
  EXPECT_EQ(result.findings[0].entity, "n1/gpu0/link3");
  EXPECT_TRUE(AnyMessageHas(result, "nvlink-recovery", "n1: GPU 0 (GPU-abc) NVLink 3: recovery_errors 1 > 0"));
  EXPECT_TRUE(AnyMessageHas(result, "nvlink-errors", "GPU 0 (GPU-abc) NVLink 7: crc_errors 250 > 100, "
                                                     "replay_errors 101 > 100"));
  EXPECT_TRUE(AnyMessageHas(result, "nvlink-errors", "reseat the GPU"));
}

TEST(NvlinkErrorCounters, ACounterRisingFasterThanTheRateFailsWithinItsCount) {
  NodeCounterReadings previous;
  previous.by_check["NvSwitch.NvlinkErrorCountersWithinLimits"] = {
      "run-a", "2026-12-01T00:00:00Z", 24, {{"gpu0/link5.crc_errors", {10, false}}}};
  const auto report = Report(Link(5, 0, 0, 58) + Link(6, 0, 0, 4));
  const CheckResult rising = CheckNvlinkErrorCounters("n1", report, LinkCounterRates{}, &previous);
  ASSERT_EQ(rising.verdict, Verdict::kFail);
  ASSERT_EQ(rising.findings.size(), 1u) << "link 6: +4 in 24 h is slow";
  EXPECT_EQ(rising.findings[0].code, "nvlink-error-rate");
  EXPECT_EQ(rising.findings[0].entity, "n1/gpu0/link5");
  EXPECT_TRUE(AnyMessageHas(rising, "nvlink-error-rate",
                            "crc_errors +48 in 24.0 h (2.00/h) since run run-a (2026-12-01T00:00:00Z) (2.00/h > 1/h; "
                            "now 58, within its count limit 100)"));
  EXPECT_EQ(CheckNvlinkErrorCounters("n1", report).verdict, Verdict::kPass) << "without a history, counts only";
}

TEST(NvlinkErrorCounters, AGpuThatKeepsNoCountersSkipsSayingSo) {
  const CheckResult none = CheckNvlinkErrorCounters("n1", Report("\t Link 0: Replay Errors: N/A\n"));
  EXPECT_EQ(none.verdict, Verdict::kSkip);
  EXPECT_NE(none.findings.at(0).message.find("lists no NVLink error counters"), std::string::npos);
}

TEST(NvlinkErrorCounters, AProfileCountLimitReplacesTheDefault) {
  LinkCounterRates strict;
  strict.count_limits = {{"crc_errors", 10}};
  strict.source = "our acceptance policy";
  const CheckResult result = CheckNvlinkErrorCounters("n1", Report(Link(7, 20, 0, 50)), strict);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_TRUE(AnyMessageHas(result, "nvlink-errors", "crc_errors 50 > 10")) << result.findings[0].message;
  EXPECT_FALSE(AnyMessageHas(result, "nvlink-errors", "replay_errors")) << "20 is within the default 100";
}

// Through the registered suite on snapshots: every h100 fixture's links at 0 pass (the
// TopoFixtures table), the edited one fails on its retrained link; the local profile skips.
TEST(NvlinkErrorCounters, SnapshotsOfAHealthyNodeAndOfAFailingOne) {
  auto judged = [](const std::string& snapshot, const std::string& profile) {
    return test_support::CheckOnFixture("NvSwitch", kNvlinkErrorCountersWithinLimits, snapshot,
                                        test_support::BuiltinProfile(profile));
  };
  EXPECT_EQ(judged("topo-h100-healthy", "h100-sxm-8").verdict, Verdict::kPass);
  const CheckResult failing = judged("topo-h100-nvlink-errors", "h100-sxm-8");
  ASSERT_EQ(failing.verdict, Verdict::kFail);
  ASSERT_EQ(failing.findings.size(), 1u) << "its 40 replays are within their limit";
  EXPECT_TRUE(AnyMessageHas(failing, "nvlink-recovery", "GPU 5 (GPU-"));
  EXPECT_TRUE(AnyMessageHas(failing, "nvlink-recovery", "NVLink 7: recovery_errors 3 > 0"));
  EXPECT_EQ(judged("topo-h100-healthy", "local").verdict, Verdict::kSkip);

  // NVML's counters come first: its snapshot's nvidia-smi nvlink -e shows every link at 0.
  EXPECT_EQ(judged("gpu-h100-healthy", "h100-sxm-8").verdict, Verdict::kPass);
  const CheckResult from_nvml = judged("gpu-h100-nvml-nvlink-errors", "h100-sxm-8");
  ASSERT_EQ(from_nvml.verdict, Verdict::kFail);
  ASSERT_EQ(from_nvml.findings.size(), 1u) << "its 57 replays are within their limit";
  EXPECT_TRUE(AnyMessageHas(from_nvml, "nvlink-recovery", "GPU 2 NVLink 11: recovery_errors 2 > 0"))
      << from_nvml.findings[0].message;
}

}  // namespace
}  // namespace gpuconform::nvswitch
