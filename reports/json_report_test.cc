// Tests of the results document (--json): its contents, and its validity against the shipped
// schema with a real validator (Debian's python3-jsonschema) for every snapshot fixture.
#include "reports/json_report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "harness/core/process_runner.h"
#include "harness/util/metric_bound.h"
#include "reports/results_reader.h"
#include "tests/support/json_schema_validator.h"
#include "tests/support/run_record_fixture.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kSchema = fs::path(GPUCONFORM_SOURCE_DIR) / "schemas" / "results.schema.json";

RunRecord SomeRun() {
  RunRecord run = test_support::LiveRunRecord("h100-sxm-8", {"node1", "node2"});
  run.hostname = "node1";
  run.slurm_job_id = "4711";
  run.exit_status = 1;
  return run;
}

std::vector<CheckResult> MixedResults() {
  CheckResult measured = Passed("AllreduceBandwidth", "NcclBusbwAtFloors");
  measured.measurements.push_back({"busbw_gb_per_s@16GiB", "478.2", "GB/s", ">= 460", "NVIDIA DGX H100 guide"});
  measured.measurements.push_back({"node1.driver", "535.129.03", "", "", ""});
  return {measured,
          Failed("SlurmGres", "GresMatchesHardware", "node2",
                 {{"gres-vs-hardware", "node2", "node2: gres/gpu 4, hardware 8"}}),
          Errored("NvSwitch", "AllToAll", "node1", "tool-missing", "node1: nvidia-smi not found"),
          Skipped("Checkpoint", "ReadThroughput", "", "no floor")};
}

TEST(MetricBound, ThresholdTextGivesDirectionAndBound) {
  const MetricBound floor = ParseMetricBound(">= 460");
  EXPECT_EQ(floor.better, "higher");
  EXPECT_EQ(floor.floor, 460);
  EXPECT_FALSE(floor.ceiling);
  const MetricBound ceiling = ParseMetricBound("<= 2.5 s");
  EXPECT_EQ(ceiling.better, "lower");
  EXPECT_EQ(ceiling.ceiling, 2.5);
  EXPECT_EQ(ParseMetricBound("").better, "");
  EXPECT_EQ(ParseMetricBound("== 8").better, "") << "an equality says no direction";
  EXPECT_EQ(ParseMetricBound(">= lots").better, "") << "no number, no bound";
}

// The file is written one result at a time; it must be exactly what dumping the whole document
// gives, for no results, one, several, and a message with invalid UTF-8 and a newline.
TEST(ResultsJson, StreamedTextIsTheWholeDocumentDumped) {
  auto whole = [](const std::vector<CheckResult>& results) {
    return RenderResultsJson({SomeRun(), results}).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  };
  std::vector<CheckResult> hostile = MixedResults();
  hostile.push_back(Failed("Fabric", "LinkState", "node1", {{"gres-vs-hardware", "node1 mlx5_0", "bad \xff byte\nnext line"}}));
  for (const std::vector<CheckResult>& results :
       {std::vector<CheckResult>{}, std::vector<CheckResult>{MixedResults().front()}, MixedResults(), hostile}) {
    EXPECT_EQ(RenderResultsJsonText({SomeRun(), results}), whole(results)) << results.size() << " results";
  }
  EXPECT_NE(RenderResultsJsonText({SomeRun(), hostile}).find("bad \xEF\xBF\xBD byte\\nnext line"), std::string::npos);
}

TEST(ResultsJson, CarriesRunVerdictsReasonsAndMetrics) {
  const nlohmann::json document = RenderResultsJson({SomeRun(), MixedResults()});
  EXPECT_EQ(document["schema_version"], kResultsSchemaVersion);
  EXPECT_EQ(document["run"]["slurm_job_id"], "4711");
  EXPECT_EQ(document["run"]["tags"]["image"], "ngc-24.05");
  EXPECT_TRUE(document["run"]["snapshot_manifest"].is_null()) << "a live run replays no snapshot";
  EXPECT_EQ(document["summary"]["cases"], 4);
  EXPECT_EQ(document["summary"]["pass"], 1);
  EXPECT_EQ(document["summary"]["fail"], 1);
  EXPECT_EQ(document["summary"]["error"], 1);
  EXPECT_EQ(document["summary"]["skip"], 1);
  const auto& busbw = document["results"][0]["metrics"][0];
  EXPECT_EQ(busbw["value"], 478.2) << "a number is a JSON number";
  EXPECT_EQ(busbw["better"], "higher");
  EXPECT_EQ(busbw["floor"], 460);
  EXPECT_EQ(busbw["source"], "NVIDIA DGX H100 guide");
  EXPECT_EQ(document["results"][0]["metrics"][1]["value"], "535.129.03") << "a version stays text";
  EXPECT_TRUE(document["results"][0]["node"].is_null()) << "a cluster-wide check has no node";
  const auto& mismatch = document["results"][1]["reasons"][0];
  EXPECT_EQ(mismatch["code"], "gres-vs-hardware");
  EXPECT_EQ(mismatch["fault_class"], "configuration");
  EXPECT_FALSE(mismatch["next_step"].get<std::string>().empty()) << "the catalogue's next step travels along";
  EXPECT_EQ(document["results"][2]["reasons"][0]["fault_class"], "tooling");
}

TEST(ResultsJson, BytesThatAreNotUtf8StillMakeAParseableDocument) {
  std::vector<CheckResult> results = {
      Errored("Software", "Versions", "node\xff", "unparseable", std::string("got \x00\xc0\xaf red", 12))};
  const std::string text = RenderResultsJsonText({SomeRun(), results});
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << text;
  EXPECT_EQ(parsed["results"][0]["verdict"], "error");
}

TEST(ResultsJson, RunIdsAreRandomHex) {
  const std::string a = NewRunId();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, NewRunId());
}

// --- Validity against the shipped schema, with python3-jsonschema ----------------------------

class ResultsSchemaTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!test_support::JsonSchemaValidatorInstalled()) GTEST_SKIP() << test_support::kNoJsonSchemaValidator;
    dir_ = fs::temp_directory_path() / ("gpuconform-json-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  std::pair<bool, std::string> Validate(const std::vector<fs::path>& files) {
    return test_support::ValidateAgainstSchema(kSchema, files);
  }
  fs::path dir_;
};

TEST_F(ResultsSchemaTest, EverySnapshotFixtureUnderEachProfileValidates) {
  std::vector<fs::path> documents;
  const fs::path snapshots = fs::path(GPUCONFORM_SOURCE_DIR) / "fixtures" / "snapshots";
  for (const auto& entry : fs::directory_iterator(snapshots)) {
    for (const std::string profile : {"h100-sxm-8", "local"}) {
      const fs::path json = dir_ / (entry.path().filename().string() + "-" + profile + ".json");
      const CommandResult run =
          RunCommand({GPUCONFORM_BINARY, "run", "--snapshot", entry.path().string(), "--profile", profile, "--color",
                      "never", "--tag", "image=fixture", "--json", json.string()},
                     120s);
      if (run.exit_code == 2) {  // the snapshot cannot be read (invalid-manifest): no document, by design
        EXPECT_FALSE(fs::exists(json)) << entry.path();
        continue;
      }
      ASSERT_TRUE(fs::exists(json)) << entry.path() << " under " << profile << ": " << run.stderr_text;
      const nlohmann::json document = nlohmann::json::parse(test_support::ReadFile(json.string()));
      EXPECT_EQ(document["run"]["exit_status"], run.exit_code) << json;
      EXPECT_EQ(document["run"]["tags"]["image"], "fixture");
      documents.push_back(json);
    }
  }
  ASSERT_GT(documents.size(), 50u) << "every fixture but the unreadable one gives a document";
  const auto [valid, output] = Validate(documents);
  EXPECT_TRUE(valid) << output;
}

TEST_F(ResultsSchemaTest, TheSchemaRejectsAFailureWithoutAReasonAndAnUnknownVerdict) {
  nlohmann::json document = RenderResultsJson({SomeRun(), MixedResults()});
  const fs::path good = dir_ / "good.json";
  std::ofstream(good) << document.dump();
  EXPECT_TRUE(Validate({good}).first) << "the unchanged document is valid";
  document["results"][1]["reasons"] = nlohmann::json::array();
  const fs::path no_reason = dir_ / "no-reason.json";
  std::ofstream(no_reason) << document.dump();
  document = RenderResultsJson({SomeRun(), MixedResults()});
  document["results"][0]["verdict"] = "flaky";
  const fs::path unknown_verdict = dir_ / "unknown-verdict.json";
  std::ofstream(unknown_verdict) << document.dump();
  for (const auto& bad : {no_reason, unknown_verdict}) {
    const auto [valid, output] = Validate({bad});
    EXPECT_FALSE(valid) << bad << " should not validate";
    EXPECT_NE(output.find(bad.string()), std::string::npos) << output;
  }
}

// A partial report says so, validates, and reads back as partial; a complete one reads back
// complete, and so does a document written before partial reports existed.
TEST_F(ResultsSchemaTest, APartialReportSaysWhyValidatesAndReadsBackPartial) {
  gpuconform::Run terminated{SomeRun(), MixedResults()};
  terminated.record.incomplete = "the run was terminated by SIGTERM at 2026-12-07T09:00:05Z";
  terminated.record.exit_status = 143;
  const nlohmann::json document = RenderResultsJson(terminated);
  EXPECT_EQ(document["run"]["complete"], false);
  EXPECT_EQ(document["run"]["incomplete"], terminated.record.incomplete);
  const fs::path partial = dir_ / "partial.json";
  std::ofstream(partial) << document.dump();
  const auto [valid, output] = Validate({partial});
  EXPECT_TRUE(valid) << output;
  auto read = ParseResultsDocument(document.dump(), "partial.json");
  ASSERT_TRUE(read) << read.error();
  EXPECT_FALSE(read->record.complete());
  EXPECT_EQ(read->record.incomplete, terminated.record.incomplete);

  nlohmann::json whole = RenderResultsJson({SomeRun(), MixedResults()});
  EXPECT_EQ(whole["run"]["complete"], true);
  EXPECT_FALSE(whole["run"].contains("incomplete"));
  whole["run"].erase("complete");
  auto old = ParseResultsDocument(whole.dump(), "old.json");
  ASSERT_TRUE(old) << old.error();
  EXPECT_TRUE(old->record.complete());
}

}  // namespace
}  // namespace gpuconform
