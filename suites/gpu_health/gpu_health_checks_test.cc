// GpuHealth checks: each passes on the healthy fixture node, and each fails on an input made
// faulty in the one field it judges; the suite judges the failing fixture snapshot end to end;
// profiles without GPUs or without limits skip it before reading anything; a node whose
// nvidia-smi or kernel log cannot be read is an error quoting why.
#include "suites/gpu_health/gpu_health_checks.h"

#include <gtest/gtest.h>

#include <functional>

#include "probes/nvidia_smi/query_text_parse.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::gpu_health {
namespace {

using kernel_log::KernelLog;
using kernel_log::ParseKernelLog;
using test_support::BuiltinProfile;
using test_support::FixtureDir;
using test_support::ReadFile;

const std::string kNode = "hgx-node-01";

std::string HealthyXml() {
  return ReadFile(FixtureDir("gpu-health-h100-healthy") + "/nodes/hgx-node-01/nvidia-smi-q.xml");
}

// The healthy XML with the `nth` (0-based) occurrence of `from` replaced: one GPU made faulty.
std::string Faulty(const std::string& from, const std::string& to, int nth = 2) {
  std::string xml = HealthyXml();
  std::size_t at = xml.find(from);
  for (int i = 0; i < nth && at != std::string::npos; ++i) at = xml.find(from, at + 1);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) xml.replace(at, from.size(), to);
  return xml;
}

GpuInventory Inventory(const std::string& xml) { return test_support::Parsed(nvidia_smi::ParseNvidiaSmiGpus(xml, "q.xml")); }

KernelLog Log(const std::string& text) { return test_support::Parsed(ParseKernelLog(text, "dmesg.txt")); }

const Profile& H100() {
  static const Profile profile = BuiltinProfile("h100-sxm-8");
  return profile;
}

// The H100 profile with its gpu_health section changed by `change`.
Profile H100WithHealth(const std::function<void(kernel_log::GpuHealthExpectation&)>& change) {
  Profile profile = H100();
  kernel_log::GpuHealthExpectation health = *profile.Get<kernel_log::GpuHealthExpectation>();
  change(health);
  profile.Set(health);
  return profile;
}

using InventoryCheck = CheckResult (*)(const std::string&, const GpuInventory&, const Profile&);

struct FailingCase {
  const char* check_name;
  InventoryCheck check;
  std::string from;
  std::string to;
  const char* code;
  const char* message_part;
  int nth = 2;  // which occurrence of `from`: GPU 2's, where each GPU has one
};

class InventoryChecks : public testing::TestWithParam<FailingCase> {};

TEST_P(InventoryChecks, PassOnTheHealthyNodeAndFailOnTheFaultyGpu) {
  const FailingCase& c = GetParam();
  const CheckResult healthy = c.check(kNode, Inventory(HealthyXml()), H100());
  EXPECT_EQ(healthy.verdict, Verdict::kPass) << test_support::Describe({healthy});
  const CheckResult faulty = c.check(kNode, Inventory(Faulty(c.from, c.to, c.nth)), H100());
  ASSERT_EQ(faulty.verdict, Verdict::kFail) << test_support::Describe({faulty});
  ASSERT_EQ(faulty.findings.size(), 1u) << test_support::Describe({faulty});
  EXPECT_EQ(faulty.findings[0].code, c.code);
  EXPECT_EQ(faulty.findings[0].entity, kNode + "/gpu2");
  EXPECT_EQ(faulty.findings[0].message.rfind(kNode + ": GPU 2 (00000000:3A:00.0) ", 0), 0u)
      << faulty.findings[0].message;
  EXPECT_NE(faulty.findings[0].message.find(c.message_part), std::string::npos) << faulty.findings[0].message;
}

INSTANTIATE_TEST_SUITE_P(
    EachCheck, InventoryChecks,
    testing::Values(
        FailingCase{kEccEnabled, CheckEccEnabled, "<current_ecc>Enabled", "<current_ecc>Disabled", "ecc-disabled",
                    "ECC mode Disabled, expected Enabled"},
        FailingCase{kNoVolatileUncorrectableEcc, CheckNoVolatileUncorrectableEcc,
                    "<sram_uncorrectable_secded>0</sram_uncorrectable_secded>",
                    "<sram_uncorrectable_secded>2</sram_uncorrectable_secded>", "ecc-uncorrectable",
                    "2 uncorrectable ECC errors since the driver loaded (SRAM 2, DRAM 0)", 4},
        FailingCase{kSramEccHealthy, CheckSramEccHealthy, "<sram_threshold_exceeded>No", "<sram_threshold_exceeded>Yes",
                    "sram-ecc", "SRAM Threshold Exceeded"},
        FailingCase{kSramEccHealthy, CheckSramEccHealthy, "<sram_correctable>0", "<sram_correctable>10001", "sram-ecc",
                    "correctable SRAM errors 0 volatile / 10001 aggregate, limit 10000", 5},
        FailingCase{kAggregateEccWithinLimits, CheckAggregateEccWithinLimits, "<dram_correctable>0",
                    "<dram_correctable>20000001", "ecc-aggregate-high", "aggregate correctable 20000001", 5},
        FailingCase{kRowRemappingHealthy, CheckRowRemappingHealthy, "<remapped_row_pending>No",
                    "<remapped_row_pending>Yes", "row-remap-pending", "row remap pending"},
        FailingCase{kRowRemappingHealthy, CheckRowRemappingHealthy, "<remapped_row_failure>No",
                    "<remapped_row_failure>Yes", "row-remap-failure", "Remapping Failure Occurred: Yes"},
        FailingCase{kRowRemappingHealthy, CheckRowRemappingHealthy, "<remapped_row_unc>0", "<remapped_row_unc>513",
                    "row-remap-count", "513 rows remapped for uncorrectable errors, limit 512"},
        FailingCase{kRetiredPagesHealthy, CheckRetiredPagesHealthy, "<pending_blacklist>N/A", "<pending_blacklist>Yes",
                    "retired-pages-pending", "page retirement pending"},
        FailingCase{kRetiredPagesHealthy, CheckRetiredPagesHealthy, "<retired_count>N/A", "<retired_count>62",
                    "retired-pages-count", "62 retired pages", 4},
        FailingCase{kNoClockSlowdown, CheckNoClockSlowdown, "<clocks_event_reason_hw_power_brake_slowdown>Not Active",
                    "<clocks_event_reason_hw_power_brake_slowdown>Active", "clock-slowdown",
                    "HW Power Brake Slowdown Active"},
        FailingCase{kNoClockSlowdown, CheckNoClockSlowdown, "<clocks_event_reason_sw_thermal_slowdown>Not Active",
                    "<clocks_event_reason_sw_thermal_slowdown>Active", "clock-slowdown", "SW Thermal Slowdown Active"},
        FailingCase{kPersistenceMode, CheckPersistenceMode, "<persistence_mode>Enabled", "<persistence_mode>Disabled",
                    "persistence-mode", "persistence mode Disabled, expected Enabled"}),
    [](const testing::TestParamInfo<FailingCase>& info) {
      return std::string(info.param.check_name) + "_" + std::to_string(info.index);
    });

TEST(GpuHealth, SwPowerCapAloneIsNotASlowdown) {
  const auto xml = Faulty("<clocks_event_reason_sw_power_cap>Not Active", "<clocks_event_reason_sw_power_cap>Active");
  EXPECT_EQ(CheckNoClockSlowdown(kNode, Inventory(xml), H100()).verdict, Verdict::kPass);
}

TEST(GpuHealth, FieldsTheDriverDoesNotReportAreAnErrorNotAPass) {
  const std::string xml = ReadFile(FixtureDir("gpu-h100-healthy") + "/nodes/hgx-node-01/nvidia-smi-q.xml");
  const std::vector<std::pair<const char*, InventoryCheck>> checks = {
      {kEccEnabled, CheckEccEnabled},
      {kNoVolatileUncorrectableEcc, CheckNoVolatileUncorrectableEcc},
      {kSramEccHealthy, CheckSramEccHealthy},
      {kAggregateEccWithinLimits, CheckAggregateEccWithinLimits},
      {kRowRemappingHealthy, CheckRowRemappingHealthy},
      {kRetiredPagesHealthy, CheckRetiredPagesHealthy},
      {kNoClockSlowdown, CheckNoClockSlowdown},
      {kPersistenceMode, CheckPersistenceMode}};
  for (const auto& [name, check] : checks) {
    const CheckResult result = check(kNode, Inventory(xml), H100());
    EXPECT_EQ(result.verdict, Verdict::kError) << name;
    ASSERT_FALSE(result.findings.empty()) << name;
    EXPECT_EQ(result.findings[0].code, "not-reported") << name;
  }
}

// The suite reads nvidia-smi -q (the text form where a snapshot holds only it) before judging:
// an output in which nvidia-smi says it failed is every inventory check's error, quoting it.
TEST(GpuHealth, NvidiaSmiThatCannotReachTheDriverIsAToolingErrorQuotingIt) {
  const ClusterRaw raw = test_support::RawOf(
      {{kNode,
        {{"nvidia-smi-q-text",
          test_support::OkOutput("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
                                 "sure that the latest NVIDIA driver is installed and running.\n",
                                 kNode + "/nvidia-smi-q.txt")}}}});
  const CheckResult result = test_support::JudgeRegisteredOnce(kSuite, kEccEnabled, raw, H100());
  EXPECT_EQ(result.TestName(), "GpuHealth.EccEnabled/" + kNode);
  ASSERT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "unavailable");
  EXPECT_EQ(result.findings[0].code.entry().fault_class, FaultClass::kTooling);
  EXPECT_EQ(result.findings[0].entity, kNode);
  EXPECT_NE(result.findings[0].message.find("couldn't communicate with the NVIDIA driver"), std::string::npos);
  EXPECT_NE(result.findings[0].message.find(kNode), std::string::npos);
}

// A node with no nvidia-smi output at all: an error naming the file, unless the profile makes
// the check inapplicable, which wins without reading anything.
TEST(GpuHealth, NoOutputIsAnErrorNamingTheFileButASkipWinsOverIt) {
  const ClusterRaw raw = test_support::RawOf({{kNode, {{"nvidia-smi-q", {ProbeStatus::kAbsent, "", "", ""}}}}});
  const CheckResult missing = test_support::JudgeRegisteredOnce(kSuite, kPersistenceMode, raw, H100());
  ASSERT_EQ(missing.verdict, Verdict::kError);
  EXPECT_NE(missing.findings[0].message.find("nvidia-smi-q.xml"), std::string::npos) << missing.findings[0].message;
  const CheckResult skipped = test_support::JudgeRegisteredOnce(kSuite, kPersistenceMode, raw, BuiltinProfile("local"));
  EXPECT_EQ(skipped.verdict, Verdict::kSkip);
  const Profile no_ecc = H100WithHealth([](auto& health) { health.ecc_required = false; });
  const CheckResult ecc = test_support::JudgeRegisteredOnce(kSuite, kEccEnabled, raw, no_ecc);
  ASSERT_EQ(ecc.verdict, Verdict::kSkip);
  EXPECT_NE(ecc.findings[0].message.find("does not require ECC (gpu_health.ecc_required: false)"), std::string::npos);
}

TEST(GpuHealth, AGpuMissingFromItsAddressIsNamedByBusId) {
  // From the kernel log: nvidia-smi lists 7 GPUs and the log says which one fell off the bus.
  const std::string seven = Faulty("\t<gpu id=\"00000000:DB:00.0\">", "\t<gpu_gone id=\"00000000:DB:00.0\">", 0);
  std::string without_db = seven;
  without_db.replace(without_db.rfind("</gpu>"), 6, "</gpu_gone>");
  const auto fell =
      Log("[Fri Apr  5 21:29:39 2024] NVRM: Xid (PCI:0000:db:00): 79, pid='<unknown>', "
          "name=<unknown>, GPU has fallen off the bus.\n");
  CheckResult result = CheckGpusAtExpectedPcieAddresses(kNode, Inventory(without_db), &fell, H100());
  test_support::ExpectOnlyFinding(result, kNode + "/00000000:DB:00.0",
                                  kNode + ": the kernel log says the GPU at 00000000:DB:00.0 has fallen off the bus");
  EXPECT_EQ(result.findings[0].code, "gpu-inaccessible");
  // Without a word in the log: the count, and with pcie_bus_ids in the profile, the address.
  const KernelLog quiet = Log("");
  result = CheckGpusAtExpectedPcieAddresses(kNode, Inventory(without_db), &quiet, H100());
  test_support::ExpectOnlyFinding(result, kNode, kNode + ": nvidia-smi lists 7 GPUs, expected 8");
  const Profile with_ids =
      H100WithHealth([](auto& health) { health.pcie_bus_ids = {"0000:18:00.0", "0000:db:00.0"}; });
  result = CheckGpusAtExpectedPcieAddresses(kNode, Inventory(without_db), &quiet, with_ids);
  test_support::ExpectOnlyFinding(result, kNode + "/00000000:DB:00.0", kNode + ": no GPU at 00000000:DB:00.0");
  EXPECT_EQ(CheckGpusAtExpectedPcieAddresses(kNode, Inventory(HealthyXml()), &quiet, with_ids).verdict,
            Verdict::kPass);
  // A kernel log that could not be read adds nothing: the count still fails.
  result = CheckGpusAtExpectedPcieAddresses(kNode, Inventory(without_db), nullptr, H100());
  test_support::ExpectOnlyFinding(result, kNode, kNode + ": nvidia-smi lists 7 GPUs, expected 8");
}

TEST(GpuHealth, AGpuNvidiaSmiCannotOpenFailsTheAddressCheck) {
  const auto inventory = test_support::Parsed(nvidia_smi::ParseNvidiaSmiQueryText(
      "Unable to determine the device handle for GPU0000:A1:00.0: Unknown Error\n", "q.txt"));
  const KernelLog quiet = Log("");
  const CheckResult result = CheckGpusAtExpectedPcieAddresses(kNode, inventory, &quiet, H100());
  test_support::ExpectOnlyFinding(result, kNode + "/00000000:A1:00.0",
                                  kNode + ": nvidia-smi cannot open the GPU at 00000000:A1:00.0");
  // The other checks cannot judge a GPU nvidia-smi does not list: an error, naming the lost one.
  const CheckResult ecc = CheckEccEnabled(kNode, inventory, H100());
  EXPECT_EQ(ecc.verdict, Verdict::kError);
  EXPECT_NE(ecc.findings[0].message.find("00000000:A1:00.0"), std::string::npos);
}

TEST(GpuHealth, HardwareAndDriverXidsFailApplicationXidsDoNot) {
  const std::string healthy_log = ReadFile(FixtureDir("gpu-health-h100-healthy") + "/nodes/hgx-node-01/dmesg.txt");
  const CheckResult pass = CheckNoHardwareXids(kNode, Log(healthy_log), H100());
  EXPECT_EQ(pass.verdict, Verdict::kPass) << test_support::Describe({pass});
  const CheckResult hardware = CheckNoHardwareXids(
      kNode,
      Log("2024-11-15T12:02:03,506595+00:00 NVRM: Xid (PCI:0000:19:00): 94, pid='<unknown>', name=<unknown>, "
          "Contained: SM (0x1). RST: No, D-RST: No\n"
          "2024-11-15T12:02:03,521616+00:00 NVRM: Xid (PCI:0000:19:00): 94, pid=1248209, name=python3.10, Ch 8\n"),
      H100());
  test_support::ExpectOnlyFinding(hardware, kNode + "/00000000:19:00.0",
                                  kNode +
                                      ": XID 94 on the GPU at 00000000:19:00.0 (2 times, last at "
                                      "2024-11-15T12:02:03,521616+00:00, kernel log line 2): contained ECC error");
  EXPECT_EQ(hardware.findings[0].code, "xid-hardware");
  EXPECT_NE(hardware.findings[0].message.find("NVIDIA's action: reset the GPU"), std::string::npos);
  const CheckResult driver = CheckNoHardwareXids(
      kNode, Log("[ 88.1] NVRM: Xid (PCI:0000:1b:00): 119, pid=2203, name=nvidia-smi, Timeout after 6s\n"), H100());
  ASSERT_EQ(driver.verdict, Verdict::kFail);
  EXPECT_EQ(driver.findings[0].code, "xid-driver");
  EXPECT_EQ(driver.findings[0].code.entry().fault_class, FaultClass::kConfiguration);
}

TEST(GpuHealth, AnUnreadableKernelLogIsAnError) {
  const ClusterRaw raw =
      test_support::RawOf({{kNode, {{"kernel-log", {ProbeStatus::kFailed, "", "", kNode + ": dmesg refused"}}}}});
  const CheckResult result = test_support::JudgeRegisteredOnce(kSuite, kNoHardwareXids, raw, H100());
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "unavailable");
  EXPECT_NE(result.findings[0].message.find("dmesg refused"), std::string::npos) << result.findings[0].message;
}

TEST(GpuHealth, ProfilesWithoutGpusOrWithoutLimitsSkipEveryCheck) {
  const Profile local = BuiltinProfile("local");
  const auto results = test_support::EvaluateSuiteOnSnapshot(kSuite, FixtureDir("gpu-health-h100-healthy"), local);
  ASSERT_EQ(results.size(), 10u);
  for (const auto& result : results) {
    EXPECT_EQ(result.verdict, Verdict::kSkip) << result.TestName();
    EXPECT_NE(result.findings[0].message.find("gpu.present: false"), std::string::npos) << result.findings[0].message;
  }
  Profile no_limits = H100();
  no_limits.Unset<kernel_log::GpuHealthExpectation>();
  const auto unlimited = test_support::EvaluateSuiteOnSnapshot(kSuite, FixtureDir("gpu-health-h100-healthy"), no_limits);
  ASSERT_EQ(unlimited.size(), 10u);
  for (const auto& result : unlimited) {
    EXPECT_EQ(result.verdict, Verdict::kSkip) << result.TestName();
    EXPECT_NE(result.findings[0].message.find("no gpu_health section"), std::string::npos) << result.findings[0].message;
  }
}

TEST(GpuHealth, SnapshotsAreJudgedEndToEnd) {
  const auto healthy = test_support::VerdictsByCheck(
      test_support::EvaluateSuiteOnSnapshot(kSuite, FixtureDir("gpu-health-h100-healthy"), H100()));
  ASSERT_EQ(healthy.size(), 10u);
  for (const auto& [check, verdict] : healthy) EXPECT_EQ(verdict, Verdict::kPass) << check;
  const auto failing = test_support::EvaluateSuiteOnSnapshot(kSuite, FixtureDir("gpu-health-h100-failing"), H100());
  const auto verdicts = test_support::VerdictsByCheck(failing);
  const std::map<std::string, Verdict> expected = {
      {kEccEnabled, Verdict::kPass},
      {kNoVolatileUncorrectableEcc, Verdict::kFail},
      {kSramEccHealthy, Verdict::kPass},
      {kAggregateEccWithinLimits, Verdict::kPass},
      {kRowRemappingHealthy, Verdict::kFail},
      {kRetiredPagesHealthy, Verdict::kPass},
      {kNoClockSlowdown, Verdict::kFail},
      {kPersistenceMode, Verdict::kPass},
      {kGpusAtExpectedPcieAddresses, Verdict::kFail},
      {kNoHardwareXids, Verdict::kFail},
  };
  EXPECT_EQ(verdicts, expected) << test_support::Describe(failing);
}

}  // namespace
}  // namespace gpuconform::gpu_health
