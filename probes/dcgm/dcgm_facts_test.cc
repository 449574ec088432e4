// The DCGM readers on a run's raw outputs: the JSON is preferred to the text, a dcgmi that
// exited non-zero is still read (it does when a test fails), and a node without either file
// is an error naming it; live, the JSON runs at the profile's level.
#include <gtest/gtest.h>

#include "harness/core/cluster_raw.h"
#include "harness/core/live_source.h"
#include "probes/dcgm/dcgm_facts.h"
#include "probes/dcgm/dcgm_probes.h"
#include "probes/dcgm/dcgm_profile.h"

namespace gpuconform::dcgm {
namespace {

RawOutput Output(ProbeStatus status, const std::string& text, const std::string& origin) {
  RawOutput out;
  out.status = status;
  out.text = text;
  out.origin = origin;
  return out;
}

const char kFailingJson[] =
    R"({"DCGM Diagnostic": {"test_categories": [{"category": "Hardware", "tests": [{"name": "memory",
       "results": [{"entity_group": "GPU", "entity_id": 0, "status": "Fail",
                    "warnings": [{"warning": "GPU 0 memory mismatch", "error_id": 58}]}]}]}]},
       "metadata": {"version": "4.2.3"}})";

const char kPassingText[] =
    "| Diagnostic | Result |\n+====+====+\n|-----  Metadata  --+--|\n| DCGM Version | 3.3.8 |\n"
    "+-----  Hardware  --+--+\n| GPU Memory | Pass - All |\n+----+----+\n";

TEST(DcgmFacts, ReadsTheJsonBeforeTheTextEvenWhenDcgmiExitedNonZero) {
  ClusterRaw raw;
  raw.nodes = {"n1"};
  raw.node["n1"][DcgmDiagJsonProbe().id] = Output(ProbeStatus::kFailed, kFailingJson, "n1/dcgmi-diag.json");
  raw.node["n1"][DcgmDiagTextProbe().id] = Output(ProbeStatus::kOk, kPassingText, "n1/dcgmi-diag.txt");
  const auto& report = ReadDcgmDiag(raw, "n1");
  ASSERT_TRUE(report) << report.error();
  EXPECT_EQ(report->origin, "n1/dcgmi-diag.json");
  EXPECT_EQ(report->dcgm_version, "4.2.3");
  EXPECT_EQ(report->tests.at(0).GpuState(0), DiagState::kFail);
}

TEST(DcgmFacts, FallsBackToTheTextAndNamesTheFileWhenNeitherIsThere) {
  ClusterRaw raw;
  raw.nodes = {"n1", "n2"};
  raw.node["n1"][DcgmDiagTextProbe().id] = Output(ProbeStatus::kOk, kPassingText, "n1/dcgmi-diag.txt");
  const auto& text = ReadDcgmDiag(raw, "n1");
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(text->format, "text");
  EXPECT_EQ(text->dcgm_version, "3.3.8");
  const auto& none = ReadDcgmDiag(raw, "n2");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().rfind("n2: ", 0), 0u) << none.error();
}

TEST(DcgmFacts, LiveRunsTheJsonAtTheProfilesLevelAndReadsTheRestFromSnapshots) {
  EXPECT_EQ(DcgmDiagJsonProbe().file, "dcgmi-diag.json");
  EXPECT_EQ(DcgmDiagTextProbe().file, "dcgmi-diag.txt");
  EXPECT_EQ(DcgmNvlinkStatusProbe().file, "dcgmi-nvlink-s.txt");
  EXPECT_EQ(DcgmDiagJsonProbe().method, ProbeMethod::kCommand);
  ASSERT_TRUE(DcgmDiagJsonProbe().command_from_profile);

  Profile profile;
  EXPECT_FALSE(DcgmDiagCommand(&profile)) << "no dcgm section: nothing to run";
  profile.Set(DcgmExpectation{3, "/etc/dcgm/diag.yaml", "/opt/dcgm/bin/dcgmi", "s"});
  const auto level3 = DcgmDiagCommand(&profile);
  ASSERT_TRUE(level3);
  EXPECT_EQ(level3->argv, (std::vector<std::string>{"/opt/dcgm/bin/dcgmi", "diag", "-r", "3", "-j", "-c",
                                                     "/etc/dcgm/diag.yaml"}));
  EXPECT_EQ(level3->timeout_ms, 40 * 60 * 1000);
  const auto capture = DcgmDiagCommand(nullptr);  // a capture without a profile: the quick level
  ASSERT_TRUE(capture);
  EXPECT_EQ(capture->argv, (std::vector<std::string>{"dcgmi", "diag", "-r", "1", "-j"}));
  EXPECT_EQ(DiagTimeoutMs(1), 2 * 60 * 1000);
  EXPECT_EQ(DiagTimeoutMs(2), 5 * 60 * 1000);
  EXPECT_EQ(DiagTimeoutMs(4), 90 * 60 * 1000);

  const RawOutput text = DcgmDiagTextProbe().builtin(LiveContext{"n1"});
  EXPECT_EQ(text.status, ProbeStatus::kAbsent);
  EXPECT_NE(text.detail.find("snapshots only"), std::string::npos) << text.detail;
}

}  // namespace
}  // namespace gpuconform::dcgm
