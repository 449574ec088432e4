// A tool that talks to the node's devices hanging with their driver loaded: a hardware failure
// that names the node, and the tool is not started again in the same run (os_error.h,
// live_source.h, verdict.h).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "harness/core/live_source.h"
#include "harness/core/os_error.h"
#include "harness/core/verdict.h"

namespace gpuconform {
namespace {

ProbeSpec Hanging(const std::string& id, const std::string& driver) {
  ProbeSpec spec = CommandProbe(id, ProbeScope::kNode, id + ".txt", {"sleep", "30"}, 200);
  return driver.empty() ? spec : TalksToDevices(spec, driver);
}

TEST(DeviceToolHung, AHungDeviceToolWithItsDriverLoadedIsAHardwareFailureNamingTheNode) {
  LiveSource live("node7", nullptr, DefaultRunOptions());
  const auto driver = std::filesystem::temp_directory_path();  // exists: "the driver is loaded"
  const RawOutput out = live.Fetch(Hanging("smi", driver.string()), "node7");
  EXPECT_EQ(out.status, ProbeStatus::kTimedOut);
  EXPECT_TRUE(SaysDeviceToolHung(out.detail)) << out.detail;
  const CheckResult result = Errored("GpuHealth", "EccClean", "node7", "unavailable", out.detail);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].code, "device-tool-hung");
  EXPECT_EQ(result.findings[0].code.entry().fault_class, FaultClass::kHardware);
  EXPECT_EQ(result.findings[0].message.rfind("node7: `sleep 30` did not finish within 200 ms", 0), 0u)
      << result.findings[0].message;
}

TEST(DeviceToolHung, AToolThatHungIsNotStartedAgainOnTheNode) {
  LiveSource live("node7", nullptr, DefaultRunOptions());
  const auto driver = std::filesystem::temp_directory_path().string();
  (void)live.Fetch(Hanging("smi-q", driver), "node7");
  const auto started = std::chrono::steady_clock::now();
  const RawOutput again = live.Fetch(Hanging("smi-topo", driver), "node7");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(150)) << "answered at once";
  EXPECT_EQ(again.status, ProbeStatus::kTimedOut);
  EXPECT_NE(again.detail.find("was not started: `sleep 30` hung earlier in this run"), std::string::npos) << again.detail;
  EXPECT_TRUE(SaysDeviceToolHung(again.detail)) << "the second probe's checks are hardware failures too";
}

TEST(DeviceToolHung, WithoutTheDriverOrForAnOrdinaryToolATimeoutStaysTooling) {
  LiveSource live("node7", nullptr, DefaultRunOptions());
  const RawOutput no_driver = live.Fetch(Hanging("smi", "/nonexistent/driver"), "node7");
  EXPECT_EQ(no_driver.status, ProbeStatus::kTimedOut);
  EXPECT_FALSE(SaysDeviceToolHung(no_driver.detail)) << no_driver.detail;
  const CheckResult result = Errored("S", "C", "node7", ProbeStatusReason(no_driver.status), no_driver.detail);
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "timed-out");
  LiveSource other("node8", nullptr, DefaultRunOptions());
  EXPECT_FALSE(SaysDeviceToolHung(other.Fetch(Hanging("ip", ""), "node8").detail));
}

TEST(DeviceToolHung, ErroredEachMarksOnlyTheHungProblems) {
  const CheckResult result = ErroredEach("S", "C", "", "unavailable",
                                         {"node1: no file", std::string("node2: x ") + std::string(kDeviceToolHungWords)});
  EXPECT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].code, "unavailable");
  EXPECT_EQ(result.findings[1].code, "device-tool-hung");
}

}  // namespace
}  // namespace gpuconform
