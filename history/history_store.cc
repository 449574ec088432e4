#include "history/history_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "harness/util/metric_bound.h"
#include "harness/util/text_util.h"

namespace gpuconform {

namespace {

constexpr char kCreateTables[] = R"sql(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY, started_utc TEXT NOT NULL, ended_utc TEXT NOT NULL,
  gpuconform_version TEXT NOT NULL, profile TEXT NOT NULL, hostname TEXT NOT NULL, mode TEXT NOT NULL,
  filter TEXT NOT NULL, slurm_job_id TEXT, exit_status INTEGER NOT NULL, nodes TEXT NOT NULL,
  tags TEXT NOT NULL, baseline_origin TEXT, facts_read_utc TEXT);
CREATE TABLE IF NOT EXISTS results (
  run_id TEXT NOT NULL REFERENCES runs(run_id), suite TEXT NOT NULL, check_name TEXT NOT NULL,
  node TEXT NOT NULL, verdict TEXT NOT NULL, duration_s REAL NOT NULL, reasons TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS metrics (
  run_id TEXT NOT NULL REFERENCES runs(run_id), result_row INTEGER NOT NULL, suite TEXT NOT NULL,
  check_name TEXT NOT NULL, node TEXT NOT NULL, metric TEXT NOT NULL, name TEXT NOT NULL, value REAL,
  text_value TEXT NOT NULL, unit TEXT NOT NULL, better TEXT NOT NULL, threshold TEXT NOT NULL,
  source TEXT NOT NULL, baseline TEXT);
CREATE INDEX IF NOT EXISTS results_by_run ON results(run_id);
CREATE INDEX IF NOT EXISTS metrics_by_run ON metrics(run_id);
INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', '1');
)sql";

// A prepared statement; finalised when it goes.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) { status_ = sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr); }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  bool ok() const { return status_ == SQLITE_OK; }
  void Bind(int index, const std::string& text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  void Bind(int index, double value) { sqlite3_bind_double(statement_, index, value); }
  void Bind(int index, long long value) { sqlite3_bind_int64(statement_, index, value); }
  void BindNull(int index) { sqlite3_bind_null(statement_, index); }
  // SQLITE_ROW, SQLITE_DONE or an error.
  int Step() { return sqlite3_step(statement_); }
  void Reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  std::string Text(int column) const {
    const auto* text = sqlite3_column_text(statement_, column);
    return text ? std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(statement_, column)) : "";
  }
  bool IsNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  double Double(int column) const { return sqlite3_column_double(statement_, column); }
  long long Int(int column) const { return sqlite3_column_int64(statement_, column); }

 private:
  sqlite3_stmt* statement_ = nullptr;
  int status_ = SQLITE_ERROR;
};

std::string SqliteError(sqlite3* db, const std::string& path, const std::string& doing) {
  return path + ": " + doing + ": " + sqlite3_errmsg(db);
}

Error Failure(sqlite3* db, const std::string& path, const std::string& doing) {
  return Error{SqliteError(db, path, doing)};
}

nlohmann::json TagsJson(const RunRecord& run) {
  nlohmann::json tags = nlohmann::json::object();
  for (const auto& [key, value] : run.tags) tags[key] = value;
  return tags;
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start < text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

constexpr int kRunColumnCount = 14;

// The runs' columns as ReadRunRow reads them, kRunColumnCount of them. `incomplete` came later: a database written
// before it has none, and its runs were all complete.
std::string RunColumns(bool has_incomplete) {
  return std::string("run_id, started_utc, ended_utc, gpuconform_version, profile, hostname, mode, filter, "
                     "slurm_job_id, exit_status, nodes, tags, baseline_origin, ") +
         (has_incomplete ? "incomplete" : "NULL");
}

RunRecord ReadRunRow(const Statement& row) {
  RunRecord run;
  run.run_id = row.Text(0);
  run.started_utc = row.Text(1);
  run.ended_utc = row.Text(2);
  run.gpuconform_version = row.Text(3);
  run.profile = row.Text(4);
  run.hostname = row.Text(5);
  run.mode = row.Text(6);
  run.filter = row.Text(7);
  if (!row.IsNull(8)) run.slurm_job_id = row.Text(8);
  run.exit_status = static_cast<int>(row.Int(9));
  run.nodes = Split(row.Text(10));
  const auto tags = nlohmann::json::parse(row.Text(11), nullptr, false);
  if (tags.is_object()) {
    for (const auto& [key, value] : tags.items()) {
      if (value.is_string()) run.tags.emplace_back(key, value.get<std::string>());
    }
  }
  if (!row.IsNull(12)) run.baseline_origin = row.Text(12);
  if (!row.IsNull(13)) run.incomplete = row.Text(13);
  return run;
}

// What differs between two runs, for trend markers: tags, and each Software component's
// majority version.
std::string ChangeBetween(const RunRecord& before, const std::map<std::string, std::string>& versions_before,
                          const RunRecord& after, const std::map<std::string, std::string>& versions_after) {
  std::vector<std::string> changes;
  std::map<std::string, std::string> tags_before(before.tags.begin(), before.tags.end());
  for (const auto& [key, value] : after.tags) {
    const auto it = tags_before.find(key);
    if (it == tags_before.end() || it->second != value) {
      changes.push_back(key + "=" + value);
    }
  }
  for (const auto& [component, version] : versions_after) {
    const auto it = versions_before.find(component);
    if (it != versions_before.end() && it->second != version) {
      changes.push_back(component + " " + it->second + " -> " + version);
    }
  }
  return Join(changes, ",");
}

}  // namespace

Result<std::unique_ptr<HistoryStore>> HistoryStore::Open(const std::string& path, std::chrono::seconds lock_timeout) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string message = SqliteError(db, path, "cannot open the history database");
    sqlite3_close(db);
    return Error{message};
  }
  std::unique_ptr<HistoryStore> store(new HistoryStore(db, path));
  sqlite3_busy_timeout(db, static_cast<int>(std::chrono::milliseconds(lock_timeout).count()));
  // A database that has its tables is only read here: creating them takes the write lock, which
  // a reader (or a writer that has yet to wait its turn in AppendRun) must not need.
  char* message = nullptr;
  Statement has_tables(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
  const bool created = has_tables.ok() && has_tables.Step() == SQLITE_ROW;
  if (!created && sqlite3_exec(db, kCreateTables, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : "unknown error";
    sqlite3_free(message);
    if (why.find("locked") != std::string::npos) {
      return Error{path + ": another process held the database's lock for more than " +
                   std::to_string(lock_timeout.count()) + " s (GPUCONFORM_HISTORY_LOCK_TIMEOUT_S)"};
    }
    return Error{path + ": not a gpuconform history database (SQLite: " + why + ")"};
  }
  Statement version(db, "SELECT value FROM meta WHERE key = 'schema_version'");
  if (!version.ok() || version.Step() != SQLITE_ROW || version.Text(0) != std::to_string(kHistorySchemaVersion)) {
    return Error{path + ": history schema_version " + (version.ok() ? version.Text(0) : "?") +
                 "; this gpuconform reads version " + std::to_string(kHistorySchemaVersion)};
  }
  return store;
}

HistoryStore::~HistoryStore() { sqlite3_close(db_); }

Result<bool> HistoryStore::AppendRun(const Run& judged) {
  const RunRecord& run = judged.record;
  const std::vector<CheckResult>& results = judged.cases;
  // IMMEDIATE takes the write lock now, waiting up to the busy timeout; a run is written whole or not at all.
  if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    if (sqlite3_errcode(db_) == SQLITE_BUSY) {
      return Error{path_ +
                   ": another process held the database's write lock for longer than the lock timeout "
                   "(GPUCONFORM_HISTORY_LOCK_TIMEOUT_S); this run is not recorded there"};
    }
    return Failure(db_, path_, "cannot start writing the run");
  }
  auto rollback = [&](const std::string& doing) {
    Error error = Failure(db_, path_, doing);
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    return error;
  };
  // Columns added after the first schema, on a database written before them.
  for (const char* column : {"facts_read_utc", "incomplete"}) {
    if (!HasRunColumn(column) &&
        sqlite3_exec(db_, (std::string("ALTER TABLE runs ADD COLUMN ") + column + " TEXT").c_str(), nullptr, nullptr,
                     nullptr) != SQLITE_OK) {
      return rollback(std::string("cannot add the runs' ") + column + " column");
    }
  }
  Statement insert_run(db_,
                       "INSERT INTO runs(run_id, started_utc, ended_utc, gpuconform_version, profile, hostname, mode, "
                       "filter, slurm_job_id, exit_status, nodes, tags, baseline_origin, facts_read_utc, incomplete) "
                       "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  Statement insert_result(db_,
                          "INSERT INTO results(run_id, suite, check_name, node, verdict, duration_s, reasons) "
                          "VALUES (?,?,?,?,?,?,?)");
  Statement insert_metric(
      db_,
      "INSERT INTO metrics(run_id, result_row, suite, check_name, node, metric, name, value, "
      "text_value, unit, better, threshold, source, baseline) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!insert_run.ok() || !insert_result.ok() || !insert_metric.ok()) return rollback("cannot prepare the inserts");
  insert_run.Bind(1, run.run_id);
  insert_run.Bind(2, run.started_utc);
  insert_run.Bind(3, run.ended_utc);
  insert_run.Bind(4, run.gpuconform_version);
  insert_run.Bind(5, run.profile);
  insert_run.Bind(6, run.hostname);
  insert_run.Bind(7, run.mode);
  insert_run.Bind(8, run.filter);
  run.slurm_job_id ? insert_run.Bind(9, *run.slurm_job_id) : insert_run.BindNull(9);
  insert_run.Bind(10, static_cast<long long>(run.exit_status));
  insert_run.Bind(11, Join(run.nodes, ","));
  insert_run.Bind(12, TagsJson(run).dump());
  run.baseline_origin ? insert_run.Bind(13, *run.baseline_origin) : insert_run.BindNull(13);
  run.facts_read_utc.empty() ? insert_run.BindNull(14) : insert_run.Bind(14, run.facts_read_utc);
  run.complete() ? insert_run.BindNull(15) : insert_run.Bind(15, run.incomplete);
  if (insert_run.Step() != SQLITE_DONE) return rollback("cannot record the run " + run.run_id);
  for (const auto& result : results) {
    nlohmann::json reasons = nlohmann::json::array();
    for (const auto& finding : result.findings) {
      reasons.push_back({{"code", finding.code.str()}, {"entity", finding.entity}, {"message", finding.message}});
    }
    insert_result.Reset();
    insert_result.Bind(1, run.run_id);
    insert_result.Bind(2, result.suite);
    insert_result.Bind(3, result.check);
    insert_result.Bind(4, result.node);
    insert_result.Bind(5, std::string(VerdictName(result.verdict)));
    insert_result.Bind(6, result.time_s);
    insert_result.Bind(7, reasons.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (insert_result.Step() != SQLITE_DONE) return rollback("cannot record " + result.TestName());
    const long long result_row = sqlite3_last_insert_rowid(db_);
    for (const auto& measurement : result.measurements) {
      const auto value = MetricNumber(measurement.value);
      insert_metric.Reset();
      insert_metric.Bind(1, run.run_id);
      insert_metric.Bind(2, result_row);
      insert_metric.Bind(3, result.suite);
      insert_metric.Bind(4, result.check);
      insert_metric.Bind(5, result.node);
      insert_metric.Bind(6, MetricIdentity(result.node, measurement.name));
      insert_metric.Bind(7, measurement.name);
      value ? insert_metric.Bind(8, *value) : insert_metric.BindNull(8);
      insert_metric.Bind(9, measurement.value);
      insert_metric.Bind(10, measurement.unit);
      insert_metric.Bind(11, ParseMetricBound(measurement.threshold).better);
      insert_metric.Bind(12, measurement.threshold);
      insert_metric.Bind(13, measurement.source);
      if (const BaselineComparison& c = measurement.baseline; c.compared) {
        insert_metric.Bind(14, nlohmann::json{{"value", c.value},
                                              {"change_fraction", c.change_fraction},
                                              {"node_is_new", c.node_is_new},
                                              {"tolerance_fraction", c.tolerance_fraction},
                                              {"regressed", c.regressed}}
                                   .dump());
      } else {
        insert_metric.BindNull(14);
      }
      if (insert_metric.Step() != SQLITE_DONE) return rollback("cannot record a metric of " + result.TestName());
    }
  }
  if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) return rollback("cannot commit the run");
  return true;
}

Result<std::vector<HistoryRun>> HistoryStore::LastRuns(int count) {
  Statement query(db_, ("SELECT " + RunColumns(HasRunColumn("incomplete")) +
                        ", (SELECT COUNT(*) FROM results r WHERE r.run_id = runs.run_id AND verdict = 'fail'), "
                        "(SELECT COUNT(*) FROM results r WHERE r.run_id = runs.run_id AND verdict = 'regression'), "
                        "(SELECT COUNT(*) FROM results r WHERE r.run_id = runs.run_id AND verdict = 'error'), "
                        "(SELECT COUNT(*) FROM results r WHERE r.run_id = runs.run_id AND verdict = 'pass'), "
                        "(SELECT COUNT(*) FROM results r WHERE r.run_id = runs.run_id AND verdict = 'skip') "
                        "FROM runs ORDER BY started_utc DESC, rowid DESC LIMIT ?")
                           .c_str());
  if (!query.ok()) return Failure(db_, path_, "cannot read the runs");
  query.Bind(1, static_cast<long long>(count));
  std::vector<HistoryRun> runs;
  int status;
  while ((status = query.Step()) == SQLITE_ROW) {
    HistoryRun entry{ReadRunRow(query)};
    // The counts follow the run's columns (kRunColumnCount).
    entry.fail = static_cast<int>(query.Int(kRunColumnCount));
    entry.regression = static_cast<int>(query.Int(kRunColumnCount + 1));
    entry.error = static_cast<int>(query.Int(kRunColumnCount + 2));
    entry.pass = static_cast<int>(query.Int(kRunColumnCount + 3));
    entry.skip = static_cast<int>(query.Int(kRunColumnCount + 4));
    runs.push_back(std::move(entry));
  }
  if (status != SQLITE_DONE) return Failure(db_, path_, "cannot read the runs");
  std::reverse(runs.begin(), runs.end());
  return runs;
}

Result<std::string> HistoryStore::NewestRunId(bool conforming_only) {
  Statement query(db_,
                  conforming_only
                      ? "SELECT run_id FROM runs WHERE exit_status = 0 ORDER BY started_utc DESC, rowid DESC LIMIT 1"
                      : "SELECT run_id FROM runs ORDER BY started_utc DESC, rowid DESC LIMIT 1");
  if (!query.ok()) return Failure(db_, path_, "cannot read the runs");
  if (query.Step() != SQLITE_ROW) {
    return Error{path_ + (conforming_only ? ": no run with exit status 0 recorded" : ": no run recorded")};
  }
  return query.Text(0);
}

Result<Run> HistoryStore::LoadRun(const std::string& run_id) {
  Run document;
  Statement run(db_, ("SELECT " + RunColumns(HasRunColumn("incomplete")) + " FROM runs WHERE run_id = ?").c_str());
  if (!run.ok()) return Failure(db_, path_, "cannot read the runs");
  run.Bind(1, run_id);
  if (run.Step() != SQLITE_ROW) return Error{path_ + ": no run " + run_id};
  document.record = ReadRunRow(run);
  Statement results(db_,
                    "SELECT rowid, suite, check_name, node, verdict, duration_s, reasons FROM results "
                    "WHERE run_id = ? ORDER BY rowid");
  Statement metrics(db_,
                    "SELECT result_row, name, text_value, unit, threshold, source FROM metrics WHERE run_id = ? "
                    "ORDER BY rowid");
  if (!results.ok() || !metrics.ok()) return Failure(db_, path_, "cannot read the results");
  results.Bind(1, run_id);
  std::map<long long, std::size_t> index_of_row;
  while (results.Step() == SQLITE_ROW) {
    CheckResult result;
    result.suite = results.Text(1);
    result.check = results.Text(2);
    result.node = results.Text(3);
    result.verdict = VerdictNamed(results.Text(4)).value_or(Verdict::kError);
    result.time_s = results.Double(5);
    const auto reasons = nlohmann::json::parse(results.Text(6), nullptr, false);
    for (const auto& reason : reasons.is_array() ? reasons : nlohmann::json::array()) {
      const auto code = ReasonCode::Find(reason.value("code", ""));
      if (code) result.findings.push_back({*code, reason.value("entity", ""), reason.value("message", "")});
    }
    index_of_row[results.Int(0)] = document.cases.size();
    document.cases.push_back(std::move(result));
  }
  metrics.Bind(1, run_id);
  while (metrics.Step() == SQLITE_ROW) {
    const auto it = index_of_row.find(metrics.Int(0));
    if (it == index_of_row.end()) continue;
    document.cases[it->second].measurements.push_back(
        {metrics.Text(1), metrics.Text(2), metrics.Text(3), metrics.Text(4), metrics.Text(5)});
  }
  return document;
}

bool HistoryStore::HasRunColumn(const std::string& name) {
  Statement query(db_, "SELECT 1 FROM pragma_table_info('runs') WHERE name = ?");
  if (!query.ok()) return false;
  query.Bind(1, name);
  return query.Step() == SQLITE_ROW;
}

Result<CounterHistory> HistoryStore::PreviousCounters(const std::vector<std::string>& nodes,
                                                      const std::string& now_read_utc, int runs_back) {
  CounterHistory history;
  history.origin = path_;
  const std::set<std::string> wanted(nodes.begin(), nodes.end());
  Statement runs(db_, HasRunColumn("facts_read_utc")
                          ? "SELECT run_id, started_utc, facts_read_utc FROM runs ORDER BY started_utc DESC, rowid "
                            "DESC LIMIT ?"
                          : "SELECT run_id, started_utc, NULL FROM runs ORDER BY started_utc DESC, rowid DESC LIMIT ?");
  Statement results(db_, "SELECT suite, check_name, node, verdict FROM results WHERE run_id = ? AND node != ''");
  Statement counters(db_,
                     "SELECT suite, check_name, node, metric, value, unit FROM metrics WHERE run_id = ? AND unit IN "
                     "(?, ?) AND value IS NOT NULL");
  if (!runs.ok() || !results.ok() || !counters.ok()) return Failure(db_, path_, "cannot read the previous counters");
  runs.Bind(1, static_cast<long long>(runs_back));
  int status;
  while ((status = runs.Step()) == SQLITE_ROW) {
    const std::string run_id = runs.Text(0);
    // Written before facts_read_utc existed: its start is the best reading time known.
    const std::string read_utc = runs.IsNull(2) ? runs.Text(1) : runs.Text(2);
    const double hours_before = HoursBetween(read_utc, now_read_utc).value_or(0);
    // The (node, check) pairs this run is the newest judgement of.
    std::set<std::pair<std::string, std::string>> newest_here;
    results.Reset();
    results.Bind(1, run_id);
    while (results.Step() == SQLITE_ROW) {
      const std::string node = results.Text(2), verdict = results.Text(3);
      if (!wanted.contains(node) || (verdict != "pass" && verdict != "fail" && verdict != "regression")) continue;
      const std::string check = results.Text(0) + "." + results.Text(1);
      auto& by_check = history.by_node[node].by_check;
      if (by_check.contains(check)) continue;
      by_check[check] = CheckCounterReadings{run_id, read_utc, hours_before, {}};
      newest_here.insert({node, check});
    }
    if (newest_here.empty()) continue;
    counters.Reset();
    counters.Bind(1, run_id);
    counters.Bind(2, std::string(kCounterUnit));
    counters.Bind(3, std::string(kSaturatedCounterUnit));
    while (counters.Step() == SQLITE_ROW) {
      const std::string node = counters.Text(2), check = counters.Text(0) + "." + counters.Text(1);
      if (!newest_here.contains({node, check})) continue;
      history.by_node[node].by_check[check].counters[counters.Text(3)] = {counters.Double(4),
                                                                          counters.Text(5) == kSaturatedCounterUnit};
    }
  }
  if (status != SQLITE_DONE) return Failure(db_, path_, "cannot read the previous counters");
  return history;
}

Result<std::vector<MetricTrend>> HistoryStore::Trends(int runs, const std::string& node,
                                                      const std::string& metric_contains) {
  auto last = LastRuns(runs);
  if (!last) return Error{last.error()};
  // Per run: its directed metrics (per node or all) and its Software majority versions.
  struct Series {
    MetricTrend trend;
    std::map<std::size_t, std::vector<double>> values_by_run;
    bool counter = false;
  };
  // Keyed by suite, check, metric and, for a link's error counter, its node: a counter is a
  // link's own (a fleet median would hide the one rising link).
  std::map<std::tuple<std::string, std::string, std::string, std::string>, Series> series;
  std::vector<std::map<std::string, std::string>> versions(last->size());
  Statement metrics(db_,
                    "SELECT suite, check_name, node, metric, value, text_value, unit, better FROM metrics "
                    "WHERE run_id = ? AND (better != '' OR suite = 'Software')");
  if (!metrics.ok()) return Failure(db_, path_, "cannot read the metrics");
  for (std::size_t i = 0; i < last->size(); ++i) {
    metrics.Reset();
    metrics.Bind(1, (*last)[i].run.run_id);
    std::map<std::string, std::map<std::string, int>> version_counts;
    while (metrics.Step() == SQLITE_ROW) {
      const std::string suite = metrics.Text(0), check = metrics.Text(1), row_node = metrics.Text(2);
      const std::string metric = metrics.Text(3);
      if (metrics.Text(7).empty()) {  // a Software version: "node1.kernel" = "6.1.0"
        const auto dot = metric.find('.');
        if (dot != std::string::npos) ++version_counts[metric.substr(dot + 1)][metrics.Text(5)];
        continue;
      }
      if (metrics.IsNull(4) || (!node.empty() && row_node != node)) continue;
      if (!metric_contains.empty() && (suite + "." + check + " " + metric).find(metric_contains) == std::string::npos) {
        continue;
      }
      const bool counter = IsCounterUnit(metrics.Text(6));
      const std::string series_node = counter ? row_node : node;
      Series& entry = series[{suite, check, metric, series_node}];
      entry.trend.suite = suite;
      entry.trend.check = check;
      entry.trend.metric = metric;
      entry.trend.node = series_node;
      entry.counter = counter;
      entry.trend.unit = metrics.Text(6);
      entry.values_by_run[i].push_back(metrics.Double(4));
    }
    for (const auto& [component, counts] : version_counts) {
      versions[i][component] = std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
                                 return a.second < b.second;
                               })->first;
    }
  }
  // A counter that a run judged on the node but did not record read 0 there.
  Statement judged(db_,
                   "SELECT 1 FROM results WHERE run_id = ? AND suite = ? AND check_name = ? AND node = ? AND "
                   "verdict IN ('pass', 'fail', 'regression')");
  if (!judged.ok()) return Failure(db_, path_, "cannot read the results");
  for (auto& [key, entry] : series) {
    if (!entry.counter) continue;
    for (std::size_t i = 0; i < last->size(); ++i) {
      if (entry.values_by_run.contains(i)) continue;
      judged.Reset();
      judged.Bind(1, (*last)[i].run.run_id);
      judged.Bind(2, entry.trend.suite);
      judged.Bind(3, entry.trend.check);
      judged.Bind(4, entry.trend.node);
      if (judged.Step() == SQLITE_ROW) entry.values_by_run[i].push_back(0);
    }
  }
  std::vector<MetricTrend> trends;
  for (auto& [key, entry] : series) {
    for (const auto& [i, values] : entry.values_by_run) {
      const RunRecord& run = (*last)[i].run;
      const std::string change = i == 0 ? "" : ChangeBetween((*last)[i - 1].run, versions[i - 1], run, versions[i]);
      entry.trend.points.push_back({run.run_id, run.started_utc, Median(values), change});
    }
    trends.push_back(std::move(entry.trend));
  }
  return trends;
}

std::optional<Result<Baseline>> BaselineFromHistorySpec(const std::string& spec, std::chrono::seconds lock_timeout) {
  constexpr std::string_view kPrefix = "history:";
  if (!spec.starts_with(kPrefix)) return std::nullopt;
  std::string path = spec.substr(kPrefix.size());
  bool last_pass = false;
  if (path.ends_with(":last-pass")) {
    path.resize(path.size() - std::string_view(":last-pass").size());
    last_pass = true;
  }
  auto store = HistoryStore::Open(path, lock_timeout);
  if (!store) return Result<Baseline>(Error{store.error()});
  auto run_id = (*store)->NewestRunId(last_pass);
  if (!run_id) return Result<Baseline>(Error{run_id.error()});
  auto run = (*store)->LoadRun(*run_id);
  if (!run) return Result<Baseline>(Error{run.error()});
  return Result<Baseline>(BaselineFromRuns({std::move(*run)}, spec));
}

namespace {

class HistoryAppendSink : public ReportSink {
 public:
  HistoryAppendSink(std::string path, std::chrono::seconds lock_timeout)
      : path_(std::move(path)), lock_timeout_(lock_timeout) {}
  Result<std::string> Write(const Run& run) const override {
    auto store = HistoryStore::Open(path_, lock_timeout_);
    if (!store) return Error{store.error()};
    if (auto appended = (*store)->AppendRun(run); !appended) return Error{appended.error()};
    return "History: " + path_ + " (run " + run.record.run_id + " appended)";
  }

 private:
  std::string path_;
  std::chrono::seconds lock_timeout_;
};

}  // namespace

std::unique_ptr<ReportSink> HistorySink(std::string path, std::chrono::seconds lock_timeout) {
  return std::make_unique<HistoryAppendSink>(std::move(path), lock_timeout);
}

}  // namespace gpuconform
