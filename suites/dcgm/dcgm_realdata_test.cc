// Dcgm.DiagnosticsPass against every published dcgmi output in the realdata folder dcgm-diag/:
// each file's verdict is the one its .source.txt gives (encoded here per file, by name). A
// file without an expectation here fails the test, so new realdata is judged too. Skips,
// saying so, when the realdata folder is absent.
#include <gtest/gtest.h>

#include <map>

#include "suites/dcgm/dcgm_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::dcgm_suite {
namespace {

struct Expected {
  bool diagnostic = true;  // false: another dcgmi command's output, not judged here
  Verdict verdict = Verdict::kPass;
  std::string code;  // the first finding's, where the verdict has one
};

// From each file's .source.txt "Verdict:" line.
const std::map<std::string, Expected>& Expectations() {
  static const std::map<std::string, Expected> kExpected = {
      // "PASS for all 8 GPUs"
      {"dcgmi-diag-r2-8xA100-p4de-nvlinks-expected-12-pass.txt", {true, Verdict::kPass, ""}},
      // "INCONCLUSIVE / tool-error, not a hardware FAIL"
      {"dcgmi-diag-r2-dcgm441-8xB200-slurm-pcie-internal-error.txt", {true, Verdict::kError, "dcgm-internal-error"}},
      // "FAIL for all 8 GPUs / the whole node ... a node-configuration fault (Fabric Manager ...), not ... memory"
      {"dcgmi-diag-r3-8xH100-gpumemory-fail-cuinit-system-not-initialized.txt",
       {true, Verdict::kFail, "dcgm-fabric-not-ready"}},
      // "PASS for GPU 0 ('Skip' of the EUD test must not be counted as a failure)"
      {"dcgmi-diag-r3-json-dcgm3x-single-gpu-pass.json.txt", {true, Verdict::kPass, ""}},
      // dcgmi nvlink --link-status: NVLink states, not a diagnostic
      {"dcgmi-nvlink-link-status-2xH100NVL-all-links-down.txt", {false, Verdict::kPass, ""}},
  };
  return kExpected;
}

TEST(DcgmRealdata, EveryDiagnosticGetsTheVerdictOfItsSource) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "dcgm-diag");
  int judged = 0;
  for (const auto& path : test_support::DataFiles(dir)) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    const auto expected = Expectations().find(name);
    ASSERT_NE(expected, Expectations().end()) << "no expectation for this realdata file: add its verdict";
    if (!expected->second.diagnostic) continue;
    const bool json = name.find(".json") != std::string::npos;
    const ClusterRaw raw = test_support::RawOf(
        {{"node1",
          {{json ? "dcgmi-diag-json" : "dcgmi-diag-text", test_support::OkOutput(test_support::ReadFile(path), name)}}}});
    const CheckResult result =
        test_support::JudgeRegisteredOnce(kSuite, kDiagnosticsPass, raw, test_support::BuiltinProfile("h100-sxm-8"));
    EXPECT_EQ(result.verdict, expected->second.verdict) << test_support::Describe({result});
    if (!expected->second.code.empty()) {
      ASSERT_FALSE(result.findings.empty());
      EXPECT_EQ(result.findings[0].code, expected->second.code);
    }
    for (const auto& finding : result.findings) EXPECT_NE(finding.code, "dcgm-diag-failed") << finding.message;
    ++judged;
  }
  EXPECT_EQ(judged, 4);
}

}  // namespace
}  // namespace gpuconform::dcgm_suite
