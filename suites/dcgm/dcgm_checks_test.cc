// Dcgm.DiagnosticsPass on the fixtures (a passing run, a GPU failing DCGM's memory test, Fabric
// Manager not ready, DCGM's internal error), on runs that never started, and skipped where the
// profile has no GPUs or no dcgm section.
#include <gtest/gtest.h>

#include "probes/dcgm/dcgm_profile.h"
#include "suites/dcgm/dcgm_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::dcgm_suite {
namespace {

const std::string kNode = "hgx-node-01";

CheckResult OnFixture(const std::string& fixture, const std::string& profile = "h100-sxm-8") {
  const auto results =
      test_support::EvaluateSuiteOnSnapshot(kSuite, test_support::FixtureDir(fixture), test_support::BuiltinProfile(profile));
  EXPECT_EQ(results.size(), 1u) << test_support::Describe(results);
  return results.empty() ? CheckResult{} : results.front();
}

CheckResult OnJson(const std::string& json, ProbeStatus status = ProbeStatus::kOk) {
  const ClusterRaw raw =
      test_support::RawOf({{"n1", {{"dcgmi-diag-json", {status, json, "n1/dcgmi-diag.json", "n1: dcgmi failed"}}}}});
  return test_support::JudgeRegisteredOnce(kSuite, kDiagnosticsPass, raw, test_support::BuiltinProfile("h100-sxm-8"));
}

TEST(DcgmDiagnosticsPass, PassesWhenEveryTestPassesOnEveryGpu) {
  const CheckResult result = OnFixture("dcgm-h100-diag-pass");
  EXPECT_EQ(result.verdict, Verdict::kPass) << test_support::Describe({result});
  EXPECT_EQ(result.TestName(), "Dcgm.DiagnosticsPass/" + kNode);
}

TEST(DcgmDiagnosticsPass, FailsTheGpuThatFailedTheMemoryTestWithDcgmsCodeAndWords) {
  const CheckResult result = OnFixture("dcgm-h100-memory-fail-gpu3");
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u) << test_support::Describe({result});
  const Finding& finding = result.findings[0];
  EXPECT_EQ(finding.code, "dcgm-diag-failed");
  EXPECT_EQ(finding.code.entry().fault_class, FaultClass::kHardware);
  EXPECT_EQ(finding.entity, kNode + "/gpu3");
  EXPECT_NE(finding.message.find("'memory' (Hardware) test failed"), std::string::npos) << finding.message;
  EXPECT_NE(finding.message.find("DCGM_FR_MEMORY_MISMATCH \"A memory mismatch was detected on GPU 3"),
            std::string::npos)
      << finding.message;
}

TEST(DcgmDiagnosticsPass, CudaNotInitialisedIsFabricManagerNotAnyGpu) {
  const CheckResult result = OnFixture("dcgm-h100-fabric-not-ready");
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u) << test_support::Describe({result});
  EXPECT_EQ(result.findings[0].code, "dcgm-fabric-not-ready");
  EXPECT_EQ(result.findings[0].code.entry().fault_class, FaultClass::kConfiguration);
  EXPECT_EQ(result.findings[0].entity, kNode);
  EXPECT_NE(result.findings[0].message.find("on GPUs 0, 1, 2, 3, 4, 5, 6, 7"), std::string::npos);
  EXPECT_NE(result.findings[0].message.find("start nvidia-fabricmanager"), std::string::npos);
}

TEST(DcgmDiagnosticsPass, DcgmsInternalErrorIsInconclusiveNotAFailure) {
  const CheckResult result = OnFixture("dcgm-h100-internal-error");
  ASSERT_EQ(result.verdict, Verdict::kError) << test_support::Describe({result});
  EXPECT_EQ(result.findings[0].code, "dcgm-internal-error");
  EXPECT_EQ(result.findings[0].code.entry().fault_class, FaultClass::kTooling);
  EXPECT_NE(result.findings[0].message.find("in test pcie"), std::string::npos) << result.findings[0].message;
}

TEST(DcgmDiagnosticsPass, AnUnreachableHostEngineIsTheToolingsError) {
  const CheckResult result = OnJson(
      R"({"DCGM Diagnostic": {"version": "4.4.1", "runtime_error": "Unable to connect to host engine. Host engine connection invalid/disconnected."}})",
      ProbeStatus::kFailed);
  ASSERT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "dcgm-host-engine");
  EXPECT_EQ(DiagnosticsUnread("n1", false, "n1: Error: Unable to connect to host engine.").findings[0].code,
            "dcgm-host-engine");
}

TEST(DcgmDiagnosticsPass, WarnAndSkipAreMeasurementsNotFailures) {
  const CheckResult result = OnJson(R"({"DCGM Diagnostic": {"test_categories": [{"category": "Stress", "tests": [
      {"name": "eud", "results": [{"entity_group": "GPU", "entity_id": 0, "status": "Skip"}]},
      {"name": "memory", "results": [{"entity_group": "GPU", "entity_id": 0, "status": "Warn",
                                      "warnings": [{"warning": "GPU 0 slow", "error_id": 62}]}]}]}]},
      "metadata": {"version": "4.4.1"}})");
  ASSERT_EQ(result.verdict, Verdict::kPass) << test_support::Describe({result});
  std::map<std::string, std::string> states;
  for (const auto& m : result.measurements) states[m.name] = m.value;
  EXPECT_EQ(states["n1/gpu0.dcgm.eud"], "skip");
  EXPECT_EQ(states["n1/gpu0.dcgm.memory"], "warn");
}

TEST(DcgmDiagnosticsPass, MissingDcgmiNamesTheToolTheNodeAndWhereToGetIt) {
  const ClusterRaw raw = test_support::RawOf(
      {{"n1", {{"dcgmi-diag-json", {ProbeStatus::kToolMissing, "", "n1: `dcgmi diag -r 2 -j`",
                                    "n1: `dcgmi` is not installed (not found on PATH)"}}}}});
  const CheckResult result =
      test_support::JudgeRegisteredOnce(kSuite, kDiagnosticsPass, raw, test_support::BuiltinProfile("h100-sxm-8"));
  ASSERT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "tool-missing");
  EXPECT_EQ(result.findings[0].message.rfind("n1: dcgmi is not installed", 0), 0u) << result.findings[0].message;
  EXPECT_NE(result.findings[0].message.find("datacenter-gpu-manager package from the CUDA repository"),
            std::string::npos);
}

TEST(DcgmDiagnosticsPass, SkippedWithoutGpusOrWithoutADcgmSection) {
  const CheckResult local = OnFixture("dcgm-h100-diag-pass", "local");
  EXPECT_EQ(local.verdict, Verdict::kSkip);
  EXPECT_NE(local.findings[0].message.find("no GPU for DCGM to diagnose"), std::string::npos);
  Profile no_section = test_support::BuiltinProfile("h100-sxm-8");
  no_section.Unset<dcgm::DcgmExpectation>();
  EXPECT_NE(DiagnosticsSkipReason(no_section)->find("has no dcgm section"), std::string::npos);
  EXPECT_FALSE(DiagnosticsSkipReason(test_support::BuiltinProfile("h100-sxm-8")));
}

}  // namespace
}  // namespace gpuconform::dcgm_suite
