// GpuHealth against every published output in the realdata folders nvidia-smi-q/ and
// kernel-log/: each file's verdicts are the ones its .source.txt gives (encoded here per file,
// by name). A file without an expectation here fails the test, so new realdata is judged too.
// Skips, saying so, when the realdata folder is absent.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "suites/gpu_health/gpu_health_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::gpu_health {
namespace {

const std::string kNode = "node1";

struct SmiExpectation {
  int gpus = 0;                     // GPUs the node has, per the .source.txt
  std::set<std::string> failing;    // checks that fail
  Verdict others = Verdict::kPass;  // every other check: pass, or error where nvidia-smi lists no GPU
  bool driver_unreachable = false;  // the errors quote nvidia-smi's "couldn't communicate" line
  std::string finding_entity;       // where given: each failing check's first finding's entity
};

// From each file's .source.txt "Verdict:" line.
const std::map<std::string, SmiExpectation>& SmiExpectations() {
  static const std::map<std::string, SmiExpectation> kExpected = {
      // "fail - GPU inaccessible / fallen off the bus; ... treated as an error (GPU missing)"
      {"akash-209-rtx4090-nvidia-smi-unknown-error.txt",
       {8, {kGpusAtExpectedPcieAddresses}, Verdict::kError, false, kNode + "/00000000:A1:00.0"}},
      // "fail on persistence (Disabled on 8/8 GPUs); pass on ECC, row remap, retired pages, throttle"
      {"azhpc-diag-8x-a100-persistence-disabled.txt", {8, {kPersistenceMode}, Verdict::kPass, false, kNode + "/gpu0"}},
      // "fail - driver missing / not loaded ... a check must report an error"
      {"gcp-gpu-install-18-driver-not-loaded.txt", {8, {}, Verdict::kError, true, ""}},
      // "fail - clock throttle (HW Slowdown / HW Power Brake active on 8/8 GPUs)"
      {"gpud-8x-h100-hw-slowdown-power-brake.txt", {8, {kNoClockSlowdown}, Verdict::kPass, false, kNode + "/gpu0"}},
      // "fail - throttle on 1 of 8 GPUs (HW Power Brake Slowdown active on 00000000:75:00.0)"
      {"gpud-8x-h100-one-gpu-power-brake-sw-thermal.txt", {8, {kNoClockSlowdown}, Verdict::kPass, false, ""}},
      // "fail - row remap pending (4 uncorrectable-error rows waiting for a GPU reset)"
      {"gpud-a10-row-remap-pending-uncorrectable.txt",
       {1, {kRowRemappingHealthy}, Verdict::kPass, false, kNode + "/gpu0"}},
      // "fail - driver missing (kernel module not available for the running kernel)"
      {"nvidia-docker-365-modprobe-driver-not-loaded.txt", {8, {}, Verdict::kError, true, ""}},
      // "fail - ECC (volatile uncorrectable/DBE > 0) and retired pages (... pending_retirement Yes)";
      // the file holds one of the node's 16 GPUs, so one is what it is judged against.
      {"pai-v100-sxm3-dbe-retired-pages-pending.xml",
       {1, {kNoVolatileUncorrectableEcc, kRetiredPagesHealthy}, Verdict::kPass, false, kNode + "/gpu0"}},
      // "healthy 8x H100 SXM node: pass on every property"
      {"thamada-8x-h100-sxm-healthy.txt", {8, {}, Verdict::kPass, false, ""}},
  };
  return kExpected;
}

// The suite's judgement of a node whose snapshot holds `text` as its nvidia-smi -q (the XML or
// the text form) and an empty kernel log: every check but NoHardwareXids, in the suite's order.
std::vector<CheckResult> JudgeSmi(const std::string& text, bool xml, int gpus) {
  Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  profile.gpu->count_per_node = gpus;
  const ClusterRaw raw = test_support::RawOf(
      {{kNode,
        {{xml ? "nvidia-smi-q" : "nvidia-smi-q-text", test_support::OkOutput(text, xml ? "q.xml" : "q.txt")},
         {"kernel-log", test_support::OkOutput("", "dmesg.txt")}}}});
  std::vector<CheckResult> results;
  for (const auto& check : {kEccEnabled, kNoVolatileUncorrectableEcc, kSramEccHealthy, kAggregateEccWithinLimits,
                            kRowRemappingHealthy, kRetiredPagesHealthy, kNoClockSlowdown, kPersistenceMode,
                            kGpusAtExpectedPcieAddresses}) {
    results.push_back(test_support::JudgeRegisteredOnce(kSuite, check, raw, profile));
  }
  return results;
}

TEST(GpuHealthRealdata, EveryNvidiaSmiOutputGetsTheVerdictsOfItsSource) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-q");
  int judged = 0;
  for (const auto& path : test_support::DataFiles(dir)) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    const auto expected = SmiExpectations().find(name);
    ASSERT_NE(expected, SmiExpectations().end()) << "no expected verdict for " << name << ": read its .source.txt";
    const SmiExpectation& want = expected->second;
    const auto results = JudgeSmi(test_support::ReadFile(path), path.extension() == ".xml", want.gpus);
    for (const auto& result : results) {
      const Verdict verdict = want.failing.count(result.check) ? Verdict::kFail : want.others;
      EXPECT_EQ(VerdictName(result.verdict), std::string(VerdictName(verdict))) << result.check << "\n"
                                                                                << test_support::Describe({result});
      if (want.driver_unreachable && !result.findings.empty()) {
        EXPECT_EQ(result.findings[0].code.entry().fault_class, FaultClass::kTooling) << result.check;
        EXPECT_NE(result.findings[0].message.find("couldn't communicate with the NVIDIA driver"), std::string::npos)
            << result.findings[0].message;
      }
      if (verdict == Verdict::kFail && !want.finding_entity.empty()) {
        ASSERT_FALSE(result.findings.empty());
        EXPECT_EQ(result.findings[0].entity, want.finding_entity) << result.check;
      }
    }
    ++judged;
  }
  EXPECT_EQ(judged, static_cast<int>(SmiExpectations().size())) << "a file with an expectation is missing";
}

TEST(GpuHealthRealdata, OneGpuOfEightThrottlingIsNamed) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-q");
  const auto results =
      JudgeSmi(test_support::ReadFile(dir / "gpud-8x-h100-one-gpu-power-brake-sw-thermal.txt"), false, 8);
  const CheckResult& clocks = results[6];
  ASSERT_EQ(clocks.check, kNoClockSlowdown);
  test_support::ExpectOnlyFinding(clocks, kNode + "/gpu2",
                                  kNode + ": GPU 2 (00000000:75:00.0) has its clocks held down");
  EXPECT_NE(clocks.findings[0].message.find("HW Power Brake Slowdown"), std::string::npos);
}

struct LogExpectation {
  bool fails = false;
  std::set<int> xids;  // the XIDs the findings name
  std::string bus_id;
};

// From each file's .source.txt "Verdict:" line.
const std::map<std::string, LogExpectation>& LogExpectations() {
  static const std::map<std::string, LogExpectation> kExpected = {
      // "fail - XID 79 (GPU fallen off the bus)"
      {"akash-209-rtx4090-xid79-fallen-off-bus.txt", {true, {79}, "00000000:A1:00.0"}},
      // "fail - GPU fallen off the bus at driver probe (equivalent to Xid 79)"
      {"gpud-1209-b200-fallen-off-bus-no-xid.txt", {true, {79}, "00000000:18:00.0"}},
      // "application-level Xids only (13 ..., 43 ...): a hardware-health check should pass"
      {"gpud-xid13-43-app-errors-excerpt.txt", {false, {}, ""}},
      // "fail - XID 48 (uncorrectable DBE) with XID 63 (row remap pending ...) and XID 94"
      {"gpud-xid48-63-94-dbe-row-remap.txt", {true, {48, 63, 94}, "00000000:19:00.0"}},
  };
  return kExpected;
}

TEST(GpuHealthRealdata, EveryKernelLogGetsTheVerdictOfItsSource) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "kernel-log");
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  int judged = 0;
  for (const auto& path : test_support::DataFiles(dir)) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    const auto expected = LogExpectations().find(name);
    ASSERT_NE(expected, LogExpectations().end()) << "no expected verdict for " << name << ": read its .source.txt";
    const CheckResult result = CheckNoHardwareXids(
        kNode, test_support::Parsed(kernel_log::ParseKernelLog(test_support::ReadFile(path), name)), profile);
    EXPECT_EQ(result.verdict, expected->second.fails ? Verdict::kFail : Verdict::kPass)
        << test_support::Describe({result});
    std::set<int> xids;
    for (const auto& finding : result.findings) {
      EXPECT_EQ(finding.entity, kNode + "/" + expected->second.bus_id);
      EXPECT_EQ(finding.code, "xid-hardware");
      xids.insert(std::stoi(finding.message.substr(finding.message.find("XID ") + 4)));
    }
    EXPECT_EQ(xids, expected->second.xids);
    ++judged;
  }
  EXPECT_EQ(judged, static_cast<int>(LogExpectations().size())) << "a file with an expectation is missing";
}

}  // namespace
}  // namespace gpuconform::gpu_health
