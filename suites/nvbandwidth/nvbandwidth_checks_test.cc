// Nvbandwidth.CopyBandwidthAtFloors on the fixtures (NVIDIA's published A100-class run, and
// the same with one GPU pair at 120 GB/s), on the realdata files as published, on host copies
// under the floor, on a run that stopped, without the tool, and skipped where the profile has
// no GPUs or no nvbandwidth section.
#include <gtest/gtest.h>

#include "suites/nvbandwidth/nvbandwidth_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::nvbandwidth_suite {
namespace {

const std::string kNode = "dgx-a100-01";

CheckResult OnFixture(const std::string& fixture, const std::string& profile = "a100-sxm-8") {
  const auto results = test_support::EvaluateSuiteOnSnapshot(kSuite, test_support::FixtureDir(fixture),
                                                             test_support::BuiltinProfile(profile));
  EXPECT_EQ(results.size(), 1u) << test_support::Describe(results);
  return results.empty() ? CheckResult{} : results.front();
}

CheckResult OnText(const std::string& text, const std::string& profile = "a100-sxm-8") {
  const ClusterRaw raw = test_support::RawOf({{"n1", {{"nvbandwidth-text", test_support::OkOutput(text, "n1/nvbandwidth.txt")}}}});
  return test_support::JudgeRegisteredOnce(kSuite, kCopyBandwidthAtFloors, raw, test_support::BuiltinProfile(profile));
}

std::string Measured(const CheckResult& result, const std::string& name) {
  for (const auto& m : result.measurements) {
    if (m.name == name) return m.value;
  }
  return "";
}

TEST(NvbandwidthCopyBandwidthAtFloors, NvidiasPublishedRunPassesTheA100Floors) {
  const CheckResult result = OnFixture("nvbandwidth-a100-healthy");
  ASSERT_EQ(result.verdict, Verdict::kPass) << test_support::Describe({result});
  EXPECT_EQ(Measured(result, kNode + ".host_to_device_memcpy_ce_min"), "25.94");
  EXPECT_EQ(Measured(result, kNode + ".device_to_device_memcpy_write_ce_min"), "274.89");
  EXPECT_EQ(Measured(result, kNode + ".device_to_host_memcpy_ce"), "not in the output");
}

TEST(NvbandwidthCopyBandwidthAtFloors, ALowPairFailsNamingItsDirectionObservedFloorAndCause) {
  const CheckResult result = OnFixture("nvbandwidth-a100-pair-low");
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u) << test_support::Describe({result});
  const Finding& finding = result.findings[0];
  EXPECT_EQ(finding.code, "copy-bandwidth-low");
  EXPECT_EQ(finding.code.entry().fault_class, FaultClass::kHardware);
  EXPECT_EQ(finding.entity, kNode + "/gpu5-gpu2");
  EXPECT_EQ(finding.message.rfind(kNode + " GPU 5 -> GPU 2: device-to-device copy 120.0 GB/s is below the floor of "
                                          "225.0 GB/s (nvbandwidth device_to_device_memcpy_write_ce); an NVLink",
                                  0),
            0u)
      << finding.message;
}

TEST(NvbandwidthCopyBandwidthAtFloors, AHostCopyUnderTheFloorBlamesTheGpusPcieLink) {
  const CheckResult result = OnText(
      "Running device_to_host_memcpy_ce.\nmemcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)\n"
      "          0         1\n0     26.03     13.01\n");
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].entity, "n1/gpu1");
  EXPECT_NE(result.findings[0].message.find("n1 GPU 1: device-to-host copy 13.0 GB/s is below the floor of 20.0 GB/s"),
            std::string::npos)
      << result.findings[0].message;
  EXPECT_NE(result.findings[0].message.find("PCIe link has likely trained down"), std::string::npos);
}

TEST(NvbandwidthCopyBandwidthAtFloors, TheRealdataPassesAsPublishedAndTheH100FloorsFailItsA100Copies) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvbandwidth");
  int judged = 0;
  for (const auto& path : test_support::DataFiles(dir)) {
    SCOPED_TRACE(path.filename().string());
    const std::string text = test_support::ReadFile(path);
    // Both files' .source.txt: "Verdict: PASS" (A100-class copies).
    EXPECT_EQ(OnText(text).verdict, Verdict::kPass) << test_support::Describe({OnText(text)});
    EXPECT_EQ(OnText(text, "h100-sxm-8").verdict, Verdict::kFail) << "an H100 copying at A100 rates is slow";
    ++judged;
  }
  EXPECT_EQ(judged, 2);
}

TEST(NvbandwidthCopyBandwidthAtFloors, ARunThatStoppedOrHoldsNoCopyTestcaseIsNotMeasured) {
  const CheckResult stopped = OnText(
      "[CUDA_ERROR_NO_DEVICE] no CUDA-capable device is detected in expression cuInit(0) in main.cpp:10\n");
  ASSERT_EQ(stopped.verdict, Verdict::kError) << test_support::Describe({stopped});
  EXPECT_EQ(stopped.findings[0].code, "not-measured");
  const CheckResult latency_only = OnText(
      "Running device_local_copy.\nmemcpy local GPU(column) bandwidth (GB/s)\n          0\n0   1500.00\n");
  ASSERT_EQ(latency_only.verdict, Verdict::kError) << test_support::Describe({latency_only});
  EXPECT_EQ(latency_only.findings[0].code, "not-measured");
}

TEST(NvbandwidthCopyBandwidthAtFloors, MissingNvbandwidthNamesTheToolTheNodeAndWhereToGetIt) {
  const ClusterRaw raw = test_support::RawOf(
      {{"n1", {{"nvbandwidth-json", {ProbeStatus::kToolMissing, "", "n1: `nvbandwidth -j`",
                                     "n1: `nvbandwidth` is not installed (not found on PATH)"}}}}});
  const CheckResult result = test_support::JudgeRegisteredOnce(kSuite, kCopyBandwidthAtFloors, raw,
                                                               test_support::BuiltinProfile("h100-sxm-8"));
  ASSERT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "tool-missing");
  EXPECT_EQ(result.findings[0].message.rfind("n1: nvbandwidth is not installed", 0), 0u);
  EXPECT_NE(result.findings[0].message.find("github.com/NVIDIA/nvbandwidth"), std::string::npos);
}

TEST(NvbandwidthCopyBandwidthAtFloors, SkippedWithoutGpusOrWithoutAnNvbandwidthSection) {
  const CheckResult local = OnFixture("nvbandwidth-a100-healthy", "local");
  EXPECT_EQ(local.verdict, Verdict::kSkip);
  EXPECT_NE(local.findings[0].message.find("no GPU copy to measure"), std::string::npos);
  Profile no_section = test_support::BuiltinProfile("a100-sxm-8");
  no_section.Unset<nvbandwidth::NvbandwidthExpectation>();
  EXPECT_NE(CopyBandwidthSkipReason(no_section)->find("has no nvbandwidth section"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::nvbandwidth_suite
