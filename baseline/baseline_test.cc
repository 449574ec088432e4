// Tests of the baseline comparison: building a baseline from runs, judging a run against it
// (regressions, tolerances, new nodes), reading results documents back, the exit status's
// precedence, and end to end through the binary on a snapshot captured on the local cluster:
// `run --baseline`, `gpuconform baseline` and `gpuconform diff`, with the documents checked by
// python3-jsonschema.
#include "baseline/baseline.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "baseline/regression.h"
#include "harness/core/process_runner.h"
#include "reports/json_report.h"
#include "reports/results_reader.h"
#include "results/run_totals.h"
#include "tests/support/json_schema_validator.h"
#include "tests/support/regression_fixture.h"
#include "tests/support/run_record_fixture.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

CheckResult Busbw(const std::string& node, const std::string& value) {
  CheckResult result = Passed("AllreduceBandwidth", "MpiBusbwAtFloors", node);
  result.measurements.push_back({"busbw@64MiB", value, "GB/s", ">= 0.05", "measured"});
  return result;
}

CheckResult Latency(const std::string& value) {
  CheckResult result = Passed("Checkpoint", "CrossNodeVisibility");
  result.measurements.push_back({"node2.visibility_latency_ms", value, "ms", "<= 10000", "profile"});
  return result;
}

Run RunOf(std::vector<CheckResult> results, const std::string& id) {
  Run run;
  run.record.run_id = id;
  run.cases = std::move(results);
  return run;
}

RegressionTolerance TenPercent() {
  RegressionTolerance tolerance;
  tolerance.bandwidth_fraction = 0.10;
  tolerance.time_fraction = 0.25;
  return tolerance;
}

TEST(MetricIdentity, TheNodesOwnPrefixIsTakenOff) {
  EXPECT_EQ(MetricIdentity("hgx-01", "hgx-01.p2p_min_gb_per_s"), "p2p_min_gb_per_s");
  EXPECT_EQ(MetricIdentity("gpu-node-01", "gpu-node-01/mlx5_0.speed"), "mlx5_0.speed");
  EXPECT_EQ(MetricIdentity("node1", "node10.key_mode"), "node10.key_mode") << "another node's name is kept";
  EXPECT_EQ(MetricIdentity("", "node2.visibility_latency_ms"), "node2.visibility_latency_ms");
}

TEST(Baseline, MediansPerNodeAcrossRunsAndAcrossTheFleet) {
  const Baseline baseline =
      BaselineFromRuns({RunOf({Busbw("n1", "1.0"), Busbw("n2", "3.0")}, "a"),
                        RunOf({Busbw("n1", "2.0"), Busbw("n2", "5.0")}, "b"), RunOf({Busbw("n1", "9.0")}, "c")},
                       "three runs");
  ASSERT_EQ(baseline.metrics.size(), 1u);
  const BaselineMetric& metric = baseline.metrics.at({"AllreduceBandwidth", "MpiBusbwAtFloors", "busbw@64MiB"});
  EXPECT_EQ(metric.better, "higher");
  EXPECT_DOUBLE_EQ(metric.by_node.at("n1"), 2.0) << "median of 1, 2, 9";
  EXPECT_DOUBLE_EQ(metric.by_node.at("n2"), 4.0) << "median of 3 and 5";
  EXPECT_DOUBLE_EQ(metric.fleet_median, 3.0) << "median of 1, 2, 3, 5, 9";
  EXPECT_EQ(baseline.run_ids, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Baseline, MetricsWithoutADirectionOrANumberAreLeftOut) {
  CheckResult result = Passed("Software", "Versions", "n1");
  result.measurements.push_back({"n1.driver", "535.129.03", "", "", ""});
  result.measurements.push_back({"configured_gpus", "8", "GPUs", "== 8", "profile"});
  result.measurements.push_back({"pending_jobs", "0", "jobs", "", ""});
  EXPECT_TRUE(BaselineFromRuns({RunOf({result}, "a")}, "run").metrics.empty());
}

TEST(Regression, TwentyPercentLessBusbwIsARegressionNamingNodeValuesAndChange) {
  const Baseline baseline = BaselineFromRuns({RunOf({Busbw("n1", "0.120")}, "0123456789abcdef")}, "good.json");
  const auto judged = CompareWithBaseline({Busbw("n1", "0.096")}, baseline, TenPercent());
  ASSERT_EQ(judged.size(), 1u);
  EXPECT_EQ(judged[0].verdict, Verdict::kRegression);
  ASSERT_EQ(judged[0].findings.size(), 1u);
  EXPECT_EQ(judged[0].findings[0].code, "metric-regression");
  EXPECT_EQ(judged[0].findings[0].message,
            "n1: busbw@64MiB 0.096 GB/s is 20.0% below the baseline's 0.12 GB/s (baseline good.json, run "
            "01234567; tolerance 10% for bandwidths, gpuconform's default)");
  const BaselineComparison& c = judged[0].measurements[0].baseline;
  EXPECT_TRUE(c.compared && c.regressed);
  EXPECT_NEAR(c.change_fraction, -0.2, 1e-9);
  EXPECT_EQ(ExitStatusFor(judged), 4);
}

TEST(Regression, WithinTheToleranceOrBetterIsNoRegressionButIsCompared) {
  const Baseline baseline = BaselineFromRuns({RunOf({Busbw("n1", "0.100"), Latency("4.0")}, "a")}, "good.json");
  const auto judged = CompareWithBaseline({Busbw("n1", "0.095"), Latency("3.0")}, baseline, TenPercent());
  for (const auto& result : judged) {
    EXPECT_EQ(result.verdict, Verdict::kPass) << result.TestName();
    EXPECT_TRUE(result.measurements[0].baseline.compared) << result.TestName();
    EXPECT_FALSE(result.measurements[0].baseline.regressed) << result.TestName();
  }
  EXPECT_EQ(ExitStatusFor(judged), 0);
}

TEST(Regression, ATimeThatRoseIsARegressionAndTheToleranceDecides) {
  const Baseline baseline = BaselineFromRuns({RunOf({Latency("4.0")}, "a")}, "good.json");
  const auto judged = CompareWithBaseline({Latency("6.0")}, baseline, TenPercent());
  EXPECT_EQ(judged[0].verdict, Verdict::kRegression);
  EXPECT_NE(judged[0].findings[0].message.find("is 50.0% above the baseline's 4 ms"), std::string::npos)
      << judged[0].findings[0].message;
  RegressionTolerance wide = TenPercent();
  wide.time_fraction = 0.6;
  EXPECT_EQ(CompareWithBaseline({Latency("6.0")}, baseline, wide)[0].verdict, Verdict::kPass);
}

TEST(Regression, ANewNodeIsComparedWithTheFleetMedianAndSaysSo) {
  const Baseline baseline =
      BaselineFromRuns({RunOf({Busbw("n1", "1.0"), Busbw("n2", "1.2"), Busbw("n3", "1.4")}, "a")}, "good.json");
  const auto judged = CompareWithBaseline({Busbw("n9", "0.9")}, baseline, TenPercent());
  EXPECT_EQ(judged[0].verdict, Verdict::kRegression);
  EXPECT_TRUE(judged[0].measurements[0].baseline.node_is_new);
  EXPECT_DOUBLE_EQ(judged[0].measurements[0].baseline.value, 1.2);
  EXPECT_NE(judged[0].findings[0].message.find("the baseline's fleet median (n9 is new to it)"), std::string::npos)
      << judged[0].findings[0].message;
}

TEST(Regression, AFailingCaseStaysFailingWithTheRegressionAdded) {
  CheckResult failing = Busbw("n1", "0.04");
  failing.verdict = Verdict::kFail;
  failing.findings.push_back({"busbw-below-floor", "n1", "n1: busbw 0.04 GB/s below the floor 0.05 GB/s"});
  const Baseline baseline = BaselineFromRuns({RunOf({Busbw("n1", "0.1")}, "a")}, "good.json");
  const auto judged = CompareWithBaseline({failing}, baseline, TenPercent());
  EXPECT_EQ(judged[0].verdict, Verdict::kFail);
  ASSERT_EQ(judged[0].findings.size(), 2u);
  EXPECT_EQ(judged[0].findings[1].code, "metric-regression");
  EXPECT_EQ(ExitStatusFor(judged), 1) << "a failure wins over a regression";
}

TEST(Regression, CountsAndMetricsTheBaselineLacksAreNotCompared) {
  CheckResult count = Passed("NvSwitch", "AllLinksActive", "n1");
  count.measurements.push_back({"n1.nvlinks_active", "100", "", ">= 144", "profile"});
  const Baseline baseline = BaselineFromRuns({RunOf({count, Busbw("n1", "1.0")}, "a")}, "good.json");
  CheckResult fewer = count;
  fewer.measurements[0].value = "50";
  CheckResult other = Passed("AllreduceBandwidth", "MpiNoSlowNode", "n1");
  other.measurements.push_back({"pair_busbw@n1+n2", "0.1", "GB/s", ">= 0.05", "measured"});
  const auto judged = CompareWithBaseline({fewer, other}, baseline, TenPercent());
  EXPECT_FALSE(judged[0].measurements[0].baseline.compared) << "a count is judged by its check's floor alone";
  EXPECT_FALSE(judged[1].measurements[0].baseline.compared) << "the baseline has no such metric";
  EXPECT_EQ(ExitStatusFor(judged), 0);
}

TEST(ExitStatus, FailureThenRegressionThenErrorThenConformance) {
  CheckResult regressed = Passed("S", "R");
  regressed.verdict = Verdict::kRegression;
  const CheckResult failed = Failed("S", "F", "", {{"busbw-below-floor", "", "below"}});
  const CheckResult errored = Errored("S", "E", "", "tool-missing", "no tool");
  EXPECT_EQ(ExitStatusFor({Passed("S", "P"), failed, regressed, errored}), 1);
  EXPECT_EQ(ExitStatusFor({Passed("S", "P"), regressed, errored}), 4);
  EXPECT_EQ(ExitStatusFor({Passed("S", "P"), errored}), 3);
  EXPECT_EQ(ExitStatusFor({Passed("S", "P")}), 0);
}

// --- Reading results documents back -------------------------------------------------------------

TEST(ResultsReader, ReadsBackWhatTheDocumentWasRenderedFrom) {
  RunRecord run = test_support::LiveRunRecord("local", {"n1", "n2"});
  run.exit_status = 4;
  run.baseline_origin = "good.json";
  run.baseline_run_ids = {"a"};
  const Baseline baseline = BaselineFromRuns({RunOf({Busbw("n1", "0.120")}, "a")}, "good.json");
  std::vector<CheckResult> results = CompareWithBaseline(
      {Busbw("n1", "0.096"), Errored("Software", "Versions", "n2", "tool-missing", "n2: uname not found")}, baseline,
      TenPercent());
  const auto read = ParseResultsDocument(RenderResultsJsonText({run, results}), "r.json");
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(read->record.run_id, run.run_id);
  EXPECT_EQ(read->record.tags, run.tags);
  EXPECT_EQ(read->record.nodes, run.nodes);
  EXPECT_EQ(read->record.exit_status, 4);
  EXPECT_EQ(read->record.baseline_origin, "good.json");
  ASSERT_EQ(read->cases.size(), 2u);
  EXPECT_EQ(read->cases[0].verdict, Verdict::kRegression);
  EXPECT_EQ(read->cases[0].findings[0].code, "metric-regression");
  EXPECT_EQ(read->cases[0].measurements[0].value, "0.096");
  EXPECT_EQ(read->cases[0].measurements[0].threshold, ">= 0.05");
  EXPECT_TRUE(read->cases[0].measurements[0].baseline.regressed);
  EXPECT_EQ(read->cases[1].node, "n2");
  EXPECT_EQ(read->cases[1].findings[0].message, "n2: uname not found");
}

TEST(ResultsReader, BadDocumentsAreRefusedNamingTheFileAndField) {
  test_support::ExpectErrorStartingWith(ParseResultsDocument("{", "r.json"), "r.json: not JSON");
  test_support::ExpectErrorStartingWith(ParseResultsDocument("{}", "r.json"),
                                        "r.json: not a gpuconform results document");
  test_support::ExpectErrorStartingWith(ParseResultsDocument(R"({"schema_version": 9})", "r.json"),
                                        "r.json: results schema_version 9");
  test_support::ExpectErrorStartingWith(
      ParseResultsDocument(R"({"schema_version": 1, "run": {"run_id": 5}})", "r.json"),
      "r.json: run.run_id: expected a string");
  const std::string unknown_code =
      nlohmann::json::parse(RenderResultsJsonText({RunRecord{}, {Errored("S", "C", "", "tool-missing", "x")}})).dump();
  std::string edited = unknown_code;
  edited.replace(edited.find("tool-missing"), 12, "tool-vanished");
  test_support::ExpectErrorContaining(ParseResultsDocument(edited, "r.json"),
                                      "results[0].reasons[0].code: 'tool-vanished' is not in this gpuconform's");
}

// Results are read one by one as the parser meets them; an error still names its element, also
// after good ones and for an element that is not an object, and "results" must be an array.
TEST(ResultsReader, ABadResultIsNamedByItsPlaceAmongTheResults) {
  const std::vector<CheckResult> three = {Passed("S", "A"), Passed("S", "B"), Errored("S", "C", "", "tool-missing", "x")};
  std::string edited = RenderResultsJsonText({RunRecord{}, three});
  edited.replace(edited.find("tool-missing"), 12, "tool-vanished");
  test_support::ExpectErrorContaining(ParseResultsDocument(edited, "r.json"), "r.json: results[2].reasons[0].code");
  nlohmann::json with_number = nlohmann::json::parse(RenderResultsJsonText({RunRecord{}, three}));
  with_number["results"].insert(with_number["results"].begin() + 1, 7);
  test_support::ExpectErrorContaining(ParseResultsDocument(with_number.dump(), "r.json"), "r.json: results[1]");
  nlohmann::json as_object = nlohmann::json::parse(RenderResultsJsonText({RunRecord{}, three}));
  as_object["results"] = {{"a", {{"suite", "S"}}}};
  test_support::ExpectErrorContaining(ParseResultsDocument(as_object.dump(), "r.json"),
                                      "r.json: results: expected an array");
  const auto read = ParseResultsDocument(RenderResultsJsonText({RunRecord{}, three}), "r.json");
  ASSERT_TRUE(read) << read.error();
  ASSERT_EQ(read->cases.size(), 3u);
  EXPECT_EQ(read->cases[2].check, "C");
}

TEST(BaselineDocument, RoundTripsAndRefusesAnotherVersion) {
  const Baseline built = BaselineFromRuns({RunOf({Busbw("n1", "0.1"), Busbw("n2", "0.3")}, "a")}, "good.json");
  const std::string text = RenderBaselineJson(built, "2026-12-04T14:00:00Z");
  const auto read = ParseBaseline(text, "base.json");
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(read->run_ids, built.run_ids);
  ASSERT_EQ(read->metrics.size(), 1u);
  EXPECT_DOUBLE_EQ(read->metrics.begin()->second.by_node.at("n2"), 0.3);
  EXPECT_DOUBLE_EQ(read->metrics.begin()->second.fleet_median, 0.2);
  std::string other = text;
  other.replace(other.find("\"schema_version\": 1"), 19, "\"schema_version\": 2");
  test_support::ExpectErrorStartingWith(ParseBaseline(other, "base.json"), "base.json: baseline schema_version 2");
}

// --- End to end, on a snapshot captured on the local cluster -----------------------------------

class BaselineCliTest : public testing::Test {
 protected:
  const std::string snapshot_ = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/local-3node-mpi-allreduce";
  const fs::path schemas_ = fs::path(GPUCONFORM_SOURCE_DIR) / "schemas";

  CommandResult Gpuconform(std::vector<std::string> args) {
    args.insert(args.begin(), GPUCONFORM_BINARY);
    return RunCommand(args, 120s);
  }
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }

  std::string TenPercentProfile() { return test_support::TenPercentLocalProfile(dir_.path()); }
  std::string FasterBaseline(const std::string& measured) {
    return test_support::FasterBaseline(measured, dir_.path());
  }

  test_support::TempDir dir_;
};

TEST_F(BaselineCliTest, TwentyPercentLowerBusbwExitsFourAndSaysSoInTerminalJsonAndJunit) {
  ASSERT_EQ(Gpuconform({"run", "--snapshot", snapshot_, "--profile", "local", "--json", Path("now.json")}).exit_code,
            0);
  const std::string good = FasterBaseline(Path("now.json"));
  const auto r =
      Gpuconform({"run", "--snapshot", snapshot_, "--profile", TenPercentProfile(), "--baseline", good, "--color",
                  "never", "--json", Path("b.json"), "--junit", Path("b.xml"), "--summary-md", Path("b.md")});
  EXPECT_EQ(r.exit_code, 4) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("[REGRESSED] MpiBusbwAtFloors"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("busbw@64MiB 0.096 GB/s is 20.0% below the baseline's 0.12 GB/s"), std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("worse than the baseline"), std::string::npos) << r.stdout_text;

  const nlohmann::json document = nlohmann::json::parse(test_support::ReadFile(Path("b.json")));
  EXPECT_EQ(document["run"]["exit_status"], 4);
  EXPECT_EQ(document["run"]["baseline"]["run_ids"][0], "feedfacefeedfacefeedfacefeedface");
  EXPECT_EQ(document["summary"]["regression"], 2) << "MpiBusbwAtFloors and MpiNoSlowNode";
  bool found = false;
  for (const auto& result : document["results"]) {
    if (result["check"] != "MpiBusbwAtFloors") continue;
    found = true;
    EXPECT_EQ(result["verdict"], "regression");
    EXPECT_EQ(result["reasons"][0]["code"], "metric-regression");
    for (const auto& metric : result["metrics"]) {
      if (metric["name"] != "busbw@64MiB") continue;
      EXPECT_NEAR(metric["baseline"]["change_fraction"].get<double>(), -0.2, 1e-6);
      EXPECT_EQ(metric["baseline"]["regressed"], true);
    }
  }
  EXPECT_TRUE(found);
  const auto [valid, output] =
      test_support::JsonSchemaValidatorInstalled()
          ? test_support::ValidateAgainstSchema(schemas_ / "results.schema.json", {Path("b.json")})
          : std::pair<bool, std::string>{true, ""};
  EXPECT_TRUE(valid) << output;

  const std::string junit = test_support::ReadFile(Path("b.xml"));
  EXPECT_NE(junit.find("type=\"metric-regression\""), std::string::npos) << junit.substr(0, 2000);
  EXPECT_NE(junit.find("is 20.0% below the baseline"), std::string::npos);
  const std::string summary = test_support::ReadFile(Path("b.md"));
  EXPECT_NE(summary.find("conforms, but worse than the baseline (exit 4)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("### Worse than the baseline"), std::string::npos) << summary;
}

TEST_F(BaselineCliTest, TheProfilesToleranceDecides) {
  ASSERT_EQ(Gpuconform({"run", "--snapshot", snapshot_, "--profile", "local", "--json", Path("now.json")}).exit_code,
            0);
  const auto r = Gpuconform({"run", "--snapshot", snapshot_, "--profile", "local", "--baseline",
                             FasterBaseline(Path("now.json")), "--json", Path("b.json")});
  EXPECT_EQ(r.exit_code, 0) << "local allows 50% for bandwidths: " << r.stdout_text;
  const nlohmann::json document = nlohmann::json::parse(test_support::ReadFile(Path("b.json")));
  int compared = 0;
  for (const auto& result : document["results"]) {
    for (const auto& metric : result["metrics"]) compared += metric.contains("baseline") ? 1 : 0;
  }
  EXPECT_GT(compared, 0) << "compared, within the tolerance";
}

TEST_F(BaselineCliTest, BaselineVerbWritesAValidDocumentThatTheSameRunMatches) {
  ASSERT_EQ(Gpuconform({"run", "--snapshot", snapshot_, "--profile", "local", "--json", Path("1.json")}).exit_code, 0);
  ASSERT_EQ(Gpuconform({"run", "--snapshot", snapshot_, "--profile", "local", "--json", Path("2.json")}).exit_code, 0);
  const auto made = Gpuconform({"baseline", "--from", Path("1.json"), Path("2.json"), "--out", Path("base.json")});
  ASSERT_EQ(made.exit_code, 0) << made.stderr_text;
  EXPECT_NE(made.stdout_text.find("from 2 run(s)"), std::string::npos) << made.stdout_text;
  if (test_support::JsonSchemaValidatorInstalled()) {
    const auto [valid, output] =
        test_support::ValidateAgainstSchema(schemas_ / "baseline.schema.json", {Path("base.json")});
    EXPECT_TRUE(valid) << output;
  }
  const auto r = Gpuconform({"run", "--snapshot", snapshot_, "--profile", TenPercentProfile(), "--baseline",
                             Path("base.json"), "--json", Path("3.json")});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("compared with the baseline"), std::string::npos) << r.stderr_text;
}

TEST_F(BaselineCliTest, DiffListsTheRegressionWithItsChangeAndExitsAsTheNewRun) {
  ASSERT_EQ(Gpuconform({"run", "--snapshot", snapshot_, "--profile", "local", "--json", Path("now.json")}).exit_code,
            0);
  const std::string good = FasterBaseline(Path("now.json"));
  const auto r = Gpuconform({"diff", good, Path("now.json"), "--profile", TenPercentProfile()});
  EXPECT_EQ(r.exit_code, 4) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("image=last-good"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("Nodes: 3 in both"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("busbw@64MiB"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("-20.0%  REGRESSED (tolerance 10%)"), std::string::npos) << r.stdout_text;
  const auto same = Gpuconform({"diff", Path("now.json"), Path("now.json")});
  EXPECT_EQ(same.exit_code, 0) << same.stdout_text;
  EXPECT_NE(same.stdout_text.find("Verdicts changed: 0"), std::string::npos) << same.stdout_text;
}

TEST_F(BaselineCliTest, AnUnreadableBaselineExitsTwoNamingItAndStillWritesTheReport) {
  std::ofstream(Path("garbage.json")) << "not json";
  const auto r = Gpuconform({"run", "--snapshot", snapshot_, "--profile", "local", "--baseline", Path("garbage.json"),
                             "--json", Path("b.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find(Path("garbage.json") + ": not JSON"), std::string::npos) << r.stderr_text;
  EXPECT_TRUE(fs::exists(Path("b.json"))) << "the run's results are not lost";
  const auto missing = Gpuconform({"diff", Path("nope.json"), Path("b.json")});
  EXPECT_EQ(missing.exit_code, 2);
  const auto baseline = Gpuconform({"baseline", "--from", Path("garbage.json"), "--out", Path("x.json")});
  EXPECT_EQ(baseline.exit_code, 2);
  EXPECT_NE(baseline.stderr_text.find("garbage.json: not JSON"), std::string::npos) << baseline.stderr_text;
}

}  // namespace
}  // namespace gpuconform
