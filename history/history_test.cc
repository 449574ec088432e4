// Tests of the run history (history/history_store.h, run --history, gpuconform history,
// --baseline history:FILE): runs written whole and read back, trends with change markers, a
// second writer that waits for the lock (and one that gives up, saying so), and the database
// checked by SQLite's own `PRAGMA integrity_check` through Debian's sqlite3 tool.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "harness/core/process_runner.h"
#include "history/history_store.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

RunRecord RunNamed(const std::string& id, const std::string& started, const std::string& image) {
  RunRecord run;
  run.run_id = id;
  run.started_utc = started;
  run.ended_utc = started;
  run.gpuconform_version = "0.1.0";
  run.profile = "local";
  run.mode = "live";
  run.nodes = {"n1", "n2"};
  run.tags = {{"image", image}};
  return run;
}

std::vector<CheckResult> ResultsWith(double busbw_n1, double busbw_n2, const std::string& kernel) {
  std::vector<CheckResult> results;
  for (const auto& [node, busbw] : {std::pair{std::string("n1"), busbw_n1}, std::pair{std::string("n2"), busbw_n2}}) {
    CheckResult result = Passed("AllreduceBandwidth", "MpiBusbwAtFloors", node);
    result.measurements.push_back({node + ".busbw@64MiB", fmt::format("{}", busbw), "GB/s", ">= 0.05", "measured"});
    results.push_back(result);
  }
  CheckResult versions = Passed("Software", "KernelVersionIdentical");
  versions.measurements.push_back({"n1.kernel", kernel, "", "", ""});
  versions.measurements.push_back({"n2.kernel", kernel, "", "", ""});
  results.push_back(versions);
  results.push_back(Failed("Munge", "KeyIdenticalOnAllNodes", "", {{"key-differs", "n2", "n2: a <different> key"}}));
  return results;
}

std::string IntegrityCheck(const std::string& path) {
  const CommandResult check = RunCommand({"sqlite3", path, "PRAGMA integrity_check;"}, 60s);
  return check.exit_code == 0 ? check.stdout_text : "sqlite3 failed: " + check.stderr_text + check.error;
}

std::unique_ptr<HistoryStore> OpenStore(const std::string& path, std::chrono::seconds lock_timeout) {
  auto store = HistoryStore::Open(path, lock_timeout);
  EXPECT_TRUE(store) << store.error();
  if (!store) return nullptr;
  return std::move(store.value());
}

class HistoryTest : public testing::Test {
 protected:
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }
  test_support::TempDir dir_;
};

TEST_F(HistoryTest, RunsAreReadBackWithTheirResultsMetricsAndFindings) {
  auto store = OpenStore(Path("h.sqlite"), 5s);
  ASSERT_TRUE(store->AppendRun({RunNamed("aaaa", "2026-12-01T00:00:00Z", "one"), ResultsWith(0.3, 0.2, "6.1")}));
  const gpuconform::Run read = test_support::Parsed(store->LoadRun("aaaa"));
  EXPECT_EQ(read.record.tags, (std::vector<std::pair<std::string, std::string>>{{"image", "one"}}));
  EXPECT_EQ(read.record.nodes, (std::vector<std::string>{"n1", "n2"}));
  ASSERT_EQ(read.cases.size(), 4u);
  EXPECT_EQ(read.cases[0].measurements[0].value, "0.3");
  EXPECT_EQ(read.cases[0].measurements[0].threshold, ">= 0.05");
  EXPECT_EQ(read.cases[3].verdict, Verdict::kFail);
  EXPECT_EQ(read.cases[3].findings[0].message, "n2: a <different> key");
  test_support::ExpectErrorContaining(store->LoadRun("zzzz"), "no run zzzz");
}

TEST_F(HistoryTest, TrendsGiveTheFleetMedianPerRunAndMarkWhatChanged) {
  auto store = OpenStore(Path("h.sqlite"), 5s);
  ASSERT_TRUE(store->AppendRun({RunNamed("aaaa", "2026-12-01T00:00:00Z", "one"), ResultsWith(0.3, 0.1, "6.1")}));
  ASSERT_TRUE(store->AppendRun({RunNamed("bbbb", "2026-12-02T00:00:00Z", "one"), ResultsWith(0.4, 0.2, "6.1")}));
  ASSERT_TRUE(store->AppendRun({RunNamed("cccc", "2026-12-03T00:00:00Z", "two"), ResultsWith(0.2, 0.2, "6.2")}));
  const auto trends = test_support::Parsed(store->Trends(10, "", "busbw"));
  ASSERT_EQ(trends.size(), 1u);
  EXPECT_EQ(trends[0].metric, "busbw@64MiB") << "the node's prefix is not part of the metric";
  ASSERT_EQ(trends[0].points.size(), 3u);
  EXPECT_DOUBLE_EQ(trends[0].points[0].value, 0.2);
  EXPECT_DOUBLE_EQ(trends[0].points[1].value, 0.3);
  EXPECT_EQ(trends[0].points[1].change, "");
  EXPECT_EQ(trends[0].points[2].change, "image=two,kernel 6.1 -> 6.2");
  const auto node = test_support::Parsed(store->Trends(10, "n1", ""));
  EXPECT_DOUBLE_EQ(node[0].points[1].value, 0.4);
  EXPECT_EQ(test_support::Parsed(store->LastRuns(2)).size(), 2u);
  EXPECT_EQ(test_support::Parsed(store->LastRuns(2)).back().run.run_id, "cccc") << "oldest first";
  EXPECT_EQ(test_support::Parsed(store->LastRuns(9)).front().fail, 1);
}

// A link's error counters: the previous reading of each node's counter check (absent counters of
// a judged check read 0), and their trend per node and link with the runs that read 0.
std::vector<CheckResult> CountersOf(const std::string& node, std::optional<double> symbol_errors) {
  CheckResult result = Passed("InfiniBand", "PortErrorCountersWithinLimits", node);
  if (symbol_errors) {
    result.measurements.push_back({node + "/mlx5_2/port1.symbol_error", fmt::format("{}", *symbol_errors), "errors",
                                   "<= 10", "ibqueryerrors"});
  }
  return {result, Passed("Munge", "KeyFileProtected", node)};
}

TEST_F(HistoryTest, EachNodesPreviousCountersAndTheirTrendPerLink) {
  auto store = OpenStore(Path("h.sqlite"), 5s);
  RunRecord first = RunNamed("aaaa", "2026-12-01T09:00:00Z", "one");
  first.facts_read_utc = "2026-12-01T08:00:00";  // a snapshot captured an hour before its replay
  ASSERT_TRUE(store->AppendRun({first, CountersOf("n1", std::nullopt)}));
  ASSERT_TRUE(store->AppendRun({RunNamed("bbbb", "2026-12-01T10:00:00Z", "one"), CountersOf("n1", 2)}));
  // The newest run judged only MUNGE on n1: the counters' reading stays bbbb's.
  ASSERT_TRUE(store->AppendRun({RunNamed("cccc", "2026-12-01T11:00:00Z", "one"),
                                {Passed("Munge", "KeyFileProtected", "n1")}}));
  const CounterHistory history = test_support::Parsed(store->PreviousCounters({"n1", "n2"}, "2026-12-01T13:00:00Z"));
  ASSERT_NE(history.Of("n1"), nullptr);
  EXPECT_EQ(history.Of("n2"), nullptr) << "no run judged n2";
  const CheckCounterReadings& reading = history.Of("n1")->by_check.at("InfiniBand.PortErrorCountersWithinLimits");
  EXPECT_EQ(reading.run_id, "bbbb");
  EXPECT_DOUBLE_EQ(reading.hours_before, 3);
  EXPECT_DOUBLE_EQ(reading.counters.at("mlx5_2/port1.symbol_error").value, 2);
  EXPECT_EQ(history.Of("n1")->by_check.at("Munge.KeyFileProtected").run_id, "cccc");
  // The trend is n1's own link, 0 where aaaa judged it clean, none where cccc did not judge it.
  const auto trends = test_support::Parsed(store->Trends(10, "", "symbol_error"));
  ASSERT_EQ(trends.size(), 1u);
  EXPECT_EQ(trends[0].node, "n1");
  EXPECT_EQ(trends[0].metric, "mlx5_2/port1.symbol_error");
  ASSERT_EQ(trends[0].points.size(), 2u);
  EXPECT_DOUBLE_EQ(trends[0].points[0].value, 0);
  EXPECT_DOUBLE_EQ(trends[0].points[1].value, 2);
}

TEST_F(HistoryTest, ADatabaseWrittenBeforeTheReadingTimeColumnGainsItOnTheNextRun) {
  const std::string path = Path("old.sqlite");
  {
    auto store = OpenStore(path, 5s);
    ASSERT_TRUE(store->AppendRun({RunNamed("aaaa", "2026-12-01T09:00:00Z", "one"), CountersOf("n1", 1)}));
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "ALTER TABLE runs DROP COLUMN facts_read_utc", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto store = OpenStore(path, 5s);
  const CounterHistory before = test_support::Parsed(store->PreviousCounters({"n1"}, "2026-12-01T10:00:00Z"));
  EXPECT_DOUBLE_EQ(before.Of("n1")->by_check.at("InfiniBand.PortErrorCountersWithinLimits").hours_before, 1)
      << "the run's start stands in for its reading time";
  ASSERT_TRUE(store->AppendRun({RunNamed("bbbb", "2026-12-01T10:00:00Z", "one"), CountersOf("n1", 1)}));
  EXPECT_EQ(IntegrityCheck(path), "ok\n");
}

// A partial run (terminated, or a provisional report) reads back partial, saying why; a
// database written before the column existed reads its runs back complete, and gains it.
TEST_F(HistoryTest, APartialRunReadsBackPartialAndAnOlderDatabaseGainsTheColumn) {
  const std::string path = Path("partial.sqlite");
  {
    auto store = OpenStore(path, 5s);
    ASSERT_TRUE(store->AppendRun({RunNamed("aaaa", "2026-12-01T09:00:00Z", "one"), ResultsWith(0.3, 0.2, "6.1")}));
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "ALTER TABLE runs DROP COLUMN incomplete", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto store = OpenStore(path, 5s);
  EXPECT_TRUE(test_support::Parsed(store->LoadRun("aaaa")).record.complete()) << "an older database's run is complete";
  RunRecord terminated = RunNamed("bbbb", "2026-12-01T10:00:00Z", "one");
  terminated.exit_status = 143;
  terminated.incomplete = "the run was terminated by SIGTERM at 2026-12-01T10:00:20Z";
  ASSERT_TRUE(store->AppendRun({terminated, ResultsWith(0.3, 0.2, "6.1")}));
  EXPECT_EQ(test_support::Parsed(store->LoadRun("bbbb")).record.incomplete, terminated.incomplete);
  EXPECT_TRUE(test_support::Parsed(store->LoadRun("aaaa")).record.complete());
  const auto runs = test_support::Parsed(store->LastRuns(5));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_TRUE(runs[0].run.complete());
  EXPECT_FALSE(runs[1].run.complete());
  EXPECT_EQ(IntegrityCheck(path), "ok\n");
}

TEST_F(HistoryTest, TheNewestConformingRunIsTheLastPassBaseline) {
  {
    auto store = OpenStore(Path("h.sqlite"), 5s);
    RunRecord good = RunNamed("aaaa", "2026-12-01T00:00:00Z", "one");
    ASSERT_TRUE(store->AppendRun({good, ResultsWith(0.3, 0.1, "6.1")}));
    RunRecord bad = RunNamed("bbbb", "2026-12-02T00:00:00Z", "two");
    bad.exit_status = 1;
    ASSERT_TRUE(store->AppendRun({bad, ResultsWith(0.9, 0.9, "6.1")}));
  }
  const auto last_pass = BaselineFromHistorySpec("history:" + Path("h.sqlite") + ":last-pass", 5s);
  ASSERT_TRUE(last_pass.has_value());
  const Baseline baseline = test_support::Parsed(*last_pass);
  EXPECT_EQ(baseline.run_ids, (std::vector<std::string>{"aaaa"}));
  EXPECT_DOUBLE_EQ(baseline.metrics.begin()->second.by_node.at("n1"), 0.3);
  const Baseline newest = test_support::Parsed(*BaselineFromHistorySpec("history:" + Path("h.sqlite"), 5s));
  EXPECT_EQ(newest.run_ids, (std::vector<std::string>{"bbbb"}));
  EXPECT_FALSE(BaselineFromHistorySpec(Path("h.sqlite"), 5s).has_value()) << "a plain path is a file, not a history";
}

TEST_F(HistoryTest, AFileThatIsNotADatabaseIsRefusedNamingIt) {
  std::ofstream(Path("notes.txt")) << "these are not the tables you are looking for\n";
  test_support::ExpectErrorContaining(HistoryStore::Open(Path("notes.txt"), 1s), "notes.txt: not a gpuconform history");
}

TEST_F(HistoryTest, ASecondWriterWaitsForTheLockOrGivesUpSayingSoAndNothingIsTorn) {
  auto first = OpenStore(Path("h.sqlite"), 5s);
  ASSERT_TRUE(first->AppendRun({RunNamed("aaaa", "2026-12-01T00:00:00Z", "one"), ResultsWith(0.3, 0.1, "6.1")}));
  // Another process's writer, as SQLite sees it: a connection holding the write lock.
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(Path("h.sqlite").c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE; INSERT INTO meta(key, value) VALUES ('busy', 'yes');", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  auto impatient = OpenStore(Path("h.sqlite"), 1s);
  const auto refused = impatient->AppendRun({RunNamed("bbbb", "2026-12-02T00:00:00Z", "one"), ResultsWith(1, 1, "6.1")});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("held the database's write lock"), std::string::npos) << refused.error();
  std::thread release([&] {
    std::this_thread::sleep_for(1500ms);
    sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr);
  });
  auto patient = OpenStore(Path("h.sqlite"), 20s);
  const auto waited = patient->AppendRun({RunNamed("cccc", "2026-12-03T00:00:00Z", "one"), ResultsWith(1, 1, "6.1")});
  release.join();
  sqlite3_close(holder);
  EXPECT_TRUE(waited) << waited.error();
  const auto runs = test_support::Parsed(patient->LastRuns(10));
  ASSERT_EQ(runs.size(), 2u) << "the refused run left nothing behind";
  EXPECT_EQ(runs[1].run.run_id, "cccc");
  EXPECT_EQ(IntegrityCheck(Path("h.sqlite")), "ok\n");
}

// --- End to end: two runs of the binary into one database, while another process writes ------

TEST_F(HistoryTest, TwoRunsIntoOneDatabaseWithAConcurrentWriterThenHistoryShowsBoth) {
  const std::string snapshot = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/local-3node-mpi-allreduce";
  const std::string db = Path("fleet.sqlite");
  const auto first = RunCommand(
      {GPUCONFORM_BINARY, "run", "--snapshot", snapshot, "--profile", "local", "--history", db, "--tag", "image=one"},
      120s);
  ASSERT_EQ(first.exit_code, 0) << first.stdout_text << first.stderr_text;
  EXPECT_NE(first.stdout_text.find("History: " + db), std::string::npos) << first.stdout_text;
  // A second gpuconform and a third, writing at the same time: one waits for the other.
  std::vector<std::string> second = {GPUCONFORM_BINARY, "run",       "--snapshot", snapshot, "--profile",
                                     "local",           "--history", db,           "--tag",  "image=two"};
  CommandResult a, b;
  std::thread other([&] { b = RunCommand(second, 120s); });
  a = RunCommand(second, 120s);
  other.join();
  EXPECT_EQ(a.exit_code, 0) << a.stderr_text;
  EXPECT_EQ(b.exit_code, 0) << b.stderr_text;
  const auto shown = RunCommand({GPUCONFORM_BINARY, "history", db, "--metric", "busbw"}, 60s);
  EXPECT_EQ(shown.exit_code, 0) << shown.stderr_text;
  EXPECT_NE(shown.stdout_text.find("the newest 3 run(s)"), std::string::npos) << shown.stdout_text;
  EXPECT_NE(shown.stdout_text.find("image=one"), std::string::npos) << shown.stdout_text;
  EXPECT_NE(shown.stdout_text.find("image=two"), std::string::npos) << shown.stdout_text;
  EXPECT_NE(shown.stdout_text.find("AllreduceBandwidth.MpiBusbwAtFloors busbw@64MiB (GB/s): 0.096 0.096* 0.096"),
            std::string::npos)
      << shown.stdout_text;
  EXPECT_EQ(IntegrityCheck(db), "ok\n");
  // The newest run as the baseline of the next: the same snapshot conforms to itself.
  const auto compared = RunCommand({GPUCONFORM_BINARY, "run", "--snapshot", snapshot, "--profile", "local",
                                    "--baseline", "history:" + db + ":last-pass"},
                                   120s);
  EXPECT_EQ(compared.exit_code, 0) << compared.stdout_text << compared.stderr_text;
  EXPECT_NE(compared.stderr_text.find("compared with the baseline history:"), std::string::npos)
      << compared.stderr_text;
  // The HTML report of the history: its newest run, and each metric's trend marked where the image changed.
  const auto html = RunCommand({GPUCONFORM_BINARY, "report", db, "--html", Path("history.html")}, 60s);
  ASSERT_EQ(html.exit_code, 0) << html.stderr_text;
  const std::string page = test_support::ReadFile(Path("history.html"));
  EXPECT_NE(page.find("id=\"trends\""), std::string::npos);
  EXPECT_NE(page.find("image=two"), std::string::npos) << "the change marker's label";
  std::ofstream(Path("garbage.sqlite")) << "not sqlite";
  const auto bad = RunCommand({GPUCONFORM_BINARY, "history", Path("garbage.sqlite")}, 60s);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.stderr_text.find("garbage.sqlite: not a gpuconform history database"), std::string::npos)
      << bad.stderr_text;
}

// The issue's own case: a node read healthy, then three hours later with 6 symbol errors on one
// rail, within the count limit 10. Alone the second reading passes; after the first in one
// history it fails naming the link and its rate, and the HTML report draws that link's trend.
TEST_F(HistoryTest, ACounterRisingFasterThanItsRateFailsNamingTheLinkAndTheReportDrawsItsTrend) {
  const std::string fixtures = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/";
  const std::string db = Path("fleet.sqlite");
  auto run = [&](const std::string& snapshot, const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {GPUCONFORM_BINARY, "run", "--snapshot", fixtures + snapshot, "--profile",
                                     "h100-sxm-8", "--filter", "InfiniBand.PortErrorCountersWithinLimits*"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return RunCommand(argv, 120s);
  };
  const auto alone = run("topo-h100-ib-errors-rising", {});
  EXPECT_EQ(alone.exit_code, 0) << alone.stdout_text << alone.stderr_text;
  const auto healthy = run("topo-h100-healthy", {"--history", db});
  ASSERT_EQ(healthy.exit_code, 0) << healthy.stdout_text << healthy.stderr_text;
  const auto rising = run("topo-h100-ib-errors-rising", {"--history", db, "--json", Path("rising.json")});
  EXPECT_EQ(rising.exit_code, 1) << rising.stdout_text << rising.stderr_text;
  EXPECT_NE(test_support::ReadFile(Path("rising.json")).find("\"ib-link-error-rate\""), std::string::npos);
  EXPECT_NE(rising.stdout_text.find("hgx-node-01: mlx5_2 port 1: error counters rising: symbol_error +6 in 3.0 h "
                                    "(2.00/h)"),
            std::string::npos)
      << rising.stdout_text;
  EXPECT_NE(rising.stdout_text.find("within its count limit 10"), std::string::npos) << rising.stdout_text;
  const auto html = RunCommand({GPUCONFORM_BINARY, "report", db, "--html", Path("links.html")}, 60s);
  ASSERT_EQ(html.exit_code, 0) << html.stderr_text;
  const std::string page = test_support::ReadFile(Path("links.html"));
  EXPECT_NE(page.find("mlx5_2/port1.symbol_error"), std::string::npos) << "the link's trend";
  EXPECT_NE(page.find(" on hgx-node-01"), std::string::npos) << "drawn for its node, not as a fleet median";
  EXPECT_EQ(IntegrityCheck(db), "ok\n");
}

}  // namespace
}  // namespace gpuconform
