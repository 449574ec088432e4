// Tests of the Prometheus textfile (run --prometheus-dir): its samples, label escaping, the
// last-success timestamp carried over a failing run, and Prometheus' own linter, `promtool check
// metrics` (Debian's prometheus package), on the textfile of a snapshot run.
#include "reports/prometheus_textfile.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "harness/core/process_runner.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

using namespace std::chrono_literals;

RunRecord SomeRun(int exit_status) {
  RunRecord run;
  run.gpuconform_version = "0.1.0";
  run.profile = "local";
  run.exit_status = exit_status;
  return run;
}

std::vector<CheckResult> SomeResults() {
  CheckResult busbw = Passed("AllreduceBandwidth", "MpiBusbwAtFloors");
  busbw.measurements.push_back({"busbw@64MiB", "0.096", "GB/s", ">= 0.05", "measured"});
  CheckResult latency = Passed("Checkpoint", "CrossNodeVisibility");
  latency.measurements.push_back({"node2.visibility_latency_ms", "2.5", "ms", "<= 10000", "profile"});
  return {busbw, latency, Failed("SlurmGres", "GresMatchesHardware", "no\"de\\2", {{"gres-vs-hardware", "n", "x"}}),
          Skipped("InfiniBand", "PortsActiveAtRate", "node1", "no InfiniBand")};
}

TEST(PrometheusTextfile, ChecksCountsAndMeasurementsInBaseUnits) {
  const std::string text = RenderPrometheusTextfile({SomeRun(1), SomeResults()}, 1764860000, 1764800000);
  EXPECT_NE(text.find("gpuconform_check_success{suite=\"AllreduceBandwidth\",check=\"MpiBusbwAtFloors\","
                      "node=\"cluster\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("node=\"no\\\"de\\\\2\"} 0\n"), std::string::npos) << "escaped label values: " << text;
  EXPECT_EQ(text.find("PortsActiveAtRate"), std::string::npos) << "a skipped check is absent";
  EXPECT_NE(text.find("metric=\"busbw@64MiB\"} 96000000\n"), std::string::npos) << "0.096 GB/s in bytes/s: " << text;
  EXPECT_NE(text.find("gpuconform_measured_time_seconds{suite=\"Checkpoint\""), std::string::npos) << text;
  EXPECT_NE(text.find("metric=\"node2.visibility_latency_ms\"} 0.0025\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpuconform_cases{verdict=\"fail\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpuconform_last_success_timestamp_seconds 1764800000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpuconform_exit_status{profile=\"local\"} 1\n"), std::string::npos) << text;
}

TEST(PrometheusTextfile, LinkErrorCountersAndRatesPerNodeDeviceAndPort) {
  CheckResult ib = Failed("InfiniBand", "PortErrorCountersWithinLimits", "node3", {{"ib-link-error-rate", "n", "x"}});
  ib.measurements.push_back({"node3/mlx5_2/port1.symbol_error", "6", "errors", "<= 10", "ibqueryerrors"});
  ib.measurements.push_back({"node3/mlx5_2/port1.symbol_error_per_hour", "2.00", "errors/h", "<= 1", "since"});
  ib.measurements.push_back({"node3/mlx5_3/port1.link_downed_per_hour", "not judged", "", "", "went down"});
  CheckResult aer = Passed("Pcie", "AerErrorsWithinLimits", "node3");
  aer.measurements.push_back({"node3/0000:19:00.0.aer_correctable", "65535", "errors (saturated)", "<= 100", "x"});
  const std::string text = RenderPrometheusTextfile({SomeRun(1), {ib, aer}}, 1764860000, std::nullopt);
  EXPECT_NE(text.find("# TYPE gpuconform_link_errors_total counter\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpuconform_link_errors_total{node=\"node3\",device=\"mlx5_2\",port=\"port1\",counter=\""
                      "symbol_error\",suite=\"InfiniBand\",check=\"PortErrorCountersWithinLimits\"} 6\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpuconform_link_errors_per_hour{node=\"node3\",device=\"mlx5_2\",port=\"port1\",counter="
                      "\"symbol_error\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("device=\"0000:19:00.0\",port=\"\",counter=\"aer_correctable\""), std::string::npos) << text;
  EXPECT_EQ(text.find("link_downed"), std::string::npos) << "a rate not judged is no sample";
  const std::string bare = RenderPrometheusTextfile({SomeRun(0), SomeResults()}, 1764860000, std::nullopt);
  EXPECT_EQ(bare.find("gpuconform_link_errors"), std::string::npos) << "no family without samples";
  if (RunCommand({"promtool", "--version"}, 30s).exit_code == 0) {
    const auto lint = RunCommand({"promtool", "check", "metrics"}, 60s, text);
    EXPECT_EQ(lint.exit_code, 0) << lint.stdout_text << lint.stderr_text;
    EXPECT_EQ(lint.stdout_text + lint.stderr_text, "") << "promtool warns";
  }
}

TEST(PrometheusTextfile, AFailingRunKeepsTheLastSuccessOfTheFileItReplaces) {
  test_support::TempDir dir;
  ASSERT_TRUE(WritePrometheusTextfile(dir.path(), {SomeRun(0), SomeResults()}));
  const std::string path = dir.path() + "/" + kPrometheusTextfileName;
  const auto success = LastSuccessInTextfile(test_support::ReadFile(path));
  ASSERT_TRUE(success.has_value());
  ASSERT_TRUE(WritePrometheusTextfile(dir.path(), {SomeRun(1), SomeResults()}));
  EXPECT_EQ(LastSuccessInTextfile(test_support::ReadFile(path)), success);
  test_support::TempDir never;
  ASSERT_TRUE(WritePrometheusTextfile(never.path(), {SomeRun(3), SomeResults()}));
  EXPECT_FALSE(LastSuccessInTextfile(test_support::ReadFile(never.path() + "/" + kPrometheusTextfileName)))
      << "no success yet, no timestamp";
}

TEST(PrometheusTextfile, PromtoolAcceptsTheTextfileOfASnapshotRun) {
  if (RunCommand({"promtool", "--version"}, 30s).exit_code != 0) {
    GTEST_SKIP() << "promtool is not installed (Debian: prometheus; ci/install-deps installs it)";
  }
  test_support::TempDir dir;
  for (const auto& [snapshot, profile] :
       {std::pair{"local-3node-mpi-allreduce", "local"}, std::pair{"local-3node-gres-mismatch", "local"},
        std::pair{"gpu-h100-slow-p2p", "h100-sxm-8"}}) {
    const auto run = RunCommand(
        {GPUCONFORM_BINARY, "run", "--snapshot", std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/" + snapshot,
         "--profile", profile, "--prometheus-dir", dir.path()},
        120s);
    ASSERT_NE(run.exit_code, 2) << run.stderr_text;
    const std::string path = dir.path() + "/" + kPrometheusTextfileName;
    const std::string text = test_support::ReadFile(path);
    EXPECT_NE(text.find("gpuconform_check_success{"), std::string::npos) << snapshot;
    const auto lint = RunCommand({"promtool", "check", "metrics"}, 60s, text);
    EXPECT_EQ(lint.exit_code, 0) << snapshot << ": " << lint.stdout_text << lint.stderr_text;
    EXPECT_EQ(lint.stdout_text + lint.stderr_text, "") << snapshot << ": promtool warns";
  }
}

}  // namespace
}  // namespace gpuconform
