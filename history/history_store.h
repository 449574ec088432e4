// The run history (`run --history FILE.sqlite`, `gpuconform history`): every run appended to
// one SQLite database, so a fleet can ask what changed, where, since last week.
// Tables: runs (one row per run: id, times, profile, mode, job, exit status, nodes, tags as
// JSON, baseline), results (one row per case: verdict, duration, reasons as JSON) and metrics
// (one row per measurement: name as a baseline knows it, number or text, unit, direction,
// threshold, source). Debian's SQLite, through its C API.
// Contract: the one place gpuconform touches a database. One writer at a time: AppendRun
// writes the whole run in one IMMEDIATE transaction, waiting up to the lock timeout for
// another writer, then gives up with an error saying so; the database is never left with half
// a run. The default rollback journal is used, not WAL, because WAL needs shared memory that
// network filesystems (where a fleet keeps its history) do not give. Errors name the file.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "baseline/baseline.h"
#include "harness/core/counter_history.h"
#include "harness/core/verdict.h"
#include "harness/util/result.h"
#include "reports/results_reader.h"
#include "results/metrics.h"
#include "results/report_sink.h"

struct sqlite3;

namespace gpuconform {

inline constexpr int kHistorySchemaVersion = 1;

// A run as `gpuconform history` lists it.
struct HistoryRun {
  RunRecord run;
  int fail = 0, regression = 0, error = 0, pass = 0, skip = 0;
};

class HistoryStore {
 public:
  // Opens (creating when absent, with its tables) the database at `path`.
  static Result<std::unique_ptr<HistoryStore>> Open(const std::string& path, std::chrono::seconds lock_timeout);
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  Result<bool> AppendRun(const Run& run);

  // The last `count` runs, oldest first.
  Result<std::vector<HistoryRun>> LastRuns(int count);
  // One run, read back as its results document was (cases in the order they were written).
  Result<Run> LoadRun(const std::string& run_id);
  // The newest run, or the newest whose exit status was 0 ("last-pass").
  Result<std::string> NewestRunId(bool conforming_only);

  // Per metric with a direction, its value over the last `runs` runs: per node when `node` is
  // given, else the fleet median. `metric_contains` filters on "Suite.Check metric" (empty: all).
  // Each point's change names what differs from the previous run: tags and Software versions.
  Result<std::vector<MetricTrend>> Trends(int runs, const std::string& node, const std::string& metric_contains);

  // Each node's link error counters (harness/core/counter_history.h): per counter check, as the
  // newest of the last `runs_back` runs here that judged that check on the node recorded them;
  // `now_read_utc` is when this run's facts were read, so each reading's hours_before is set.
  Result<CounterHistory> PreviousCounters(const std::vector<std::string>& nodes, const std::string& now_read_utc,
                                          int runs_back = 50);

  const std::string& path() const { return path_; }

 private:
  // Databases written before facts_read_utc existed lack the column until a run is appended.
  // Whether the runs table has `name`, a column added after the first schema.
  bool HasRunColumn(const std::string& name);
  HistoryStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
};

// `--baseline history:FILE.sqlite[:last-pass]`: the newest run of the database (or the newest
// conforming one) as a baseline. Nothing when `spec` does not start with "history:".
std::optional<Result<Baseline>> BaselineFromHistorySpec(const std::string& spec, std::chrono::seconds lock_timeout);

// The run appended to the history database at `path` (created when new): a report sink that
// says "History: FILE (run ID appended)".
std::unique_ptr<ReportSink> HistorySink(std::string path, std::chrono::seconds lock_timeout);

}  // namespace gpuconform
