#include "app/document_verbs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <tuple>

#include "app/terminal_printer.h"
#include "baseline/regression.h"
#include "fleet/drain_step.h"
#include "harness/core/profile.h"
#include "harness/util/atomic_file.h"
#include "harness/util/hostlist.h"
#include "harness/util/read_file.h"
#include "harness/util/text_util.h"
#include "harness/util/timestamp.h"
#include "history/history_store.h"
#include "reports/json_report.h"
#include "reports/report_sinks.h"
#include "reports/results_merge.h"
#include "reports/results_reader.h"

namespace gpuconform {

namespace {

// Verbs that only read a database wait this long for a writer's lock.
constexpr std::chrono::seconds kReaderLockTimeout(30);
// Runs whose trends the HTML report of a history draws.
constexpr int kReportTrendRuns = 20;

// "SQLite format 3\0" opens every SQLite database file.
bool IsSqliteFile(const std::string& path) {
  auto head = ReadTextFile(path, "file", std::size_t{1} << 40);
  return head && head->compare(0, 16, std::string("SQLite format 3\0", 16)) == 0;
}

// Changes smaller than this are noise in a listing; regressions are listed whatever their size.
constexpr double kListedChangeFraction = 0.01;

Result<Run> ReadResults(const std::string& path) {
  auto text = ReadTextFile(path, "results document (run --json FILE)");
  if (!text) return Error{text.error()};
  return ParseResultsDocument(*text, path);
}

std::string Describe(const RunRecord& run) {
  std::string text = "run " + run.run_id.substr(0, 8) + " (" + run.started_utc + ", profile " + run.profile;
  for (const auto& [key, value] : run.tags) text += ", " + key + "=" + value;
  return text + ")";
}

// The regression tolerances: --profile, else the new run's profile where it loads, else defaults.
RegressionTolerance Tolerances(const CommandLine& command, const Run& newer) {
  const std::string name = command.profile.empty() ? newer.record.profile : command.profile;
  auto profile = LoadProfile(name);
  if (profile) return profile->GetOrDefault<RegressionTolerance>();
  std::cerr << "gpuconform: " << profile.error() << "; using the default regression tolerances\n";
  return RegressionTolerance{};
}

using CaseKey = std::tuple<std::string, std::string, std::string>;  // suite, check, node

std::string CaseName(const CaseKey& key) {
  const auto& [suite, check, node] = key;
  return suite + "." + check + (node.empty() ? "" : "/" + node);
}

std::string NodesLine(const RunRecord& older, const RunRecord& newer) {
  const std::set<std::string> before(older.nodes.begin(), older.nodes.end());
  const std::set<std::string> after(newer.nodes.begin(), newer.nodes.end());
  std::vector<std::string> appeared, gone;
  int both = 0;
  for (const auto& node : after) before.count(node) ? ++both : (appeared.push_back(node), 0);
  for (const auto& node : before) {
    if (!after.count(node)) gone.push_back(node);
  }
  std::string line = fmt::format("Nodes: {} in both", both);
  if (!appeared.empty()) line += fmt::format("; new: {}", CompressHostlist(appeared));
  if (!gone.empty()) line += fmt::format("; gone: {}", CompressHostlist(gone));
  return line + "\n";
}

std::string VerdictChanges(const Run& older, const std::vector<CheckResult>& newer) {
  std::map<CaseKey, Verdict> before;
  for (const auto& result : older.cases) before[{result.suite, result.check, result.node}] = result.verdict;
  std::string lines;
  int changed = 0, added = 0;
  std::set<CaseKey> seen;
  for (const auto& result : newer) {
    const CaseKey key{result.suite, result.check, result.node};
    seen.insert(key);
    const auto it = before.find(key);
    if (it == before.end()) {
      ++added;
      continue;
    }
    if (it->second == result.verdict) continue;
    ++changed;
    lines += fmt::format("  {:<60} {} -> {}\n", CaseName(key), VerdictName(it->second), VerdictName(result.verdict));
  }
  const int removed = static_cast<int>(
      std::count_if(before.begin(), before.end(), [&](const auto& entry) { return !seen.count(entry.first); }));
  std::string text = fmt::format("Verdicts changed: {}", changed);
  if (added || removed) text += fmt::format(" ({} case(s) only in the new run, {} only in the old)", added, removed);
  return text + "\n" + lines;
}

std::string MetricChanges(const std::vector<CheckResult>& compared) {
  struct Line {
    bool regressed;
    double change;
    std::string text;
  };
  std::vector<Line> lines;
  int metrics = 0, regressed = 0;
  for (const auto& result : compared) {
    for (const auto& measurement : result.measurements) {
      if (!measurement.baseline.compared) continue;
      ++metrics;
      const BaselineComparison& c = measurement.baseline;
      regressed += c.regressed ? 1 : 0;
      if (!c.regressed && std::abs(c.change_fraction) < kListedChangeFraction) continue;
      const std::string where = result.suite + "." + result.check + (result.node.empty() ? "" : "/" + result.node);
      lines.push_back(
          {c.regressed, c.change_fraction,
           fmt::format("  {:<60} {:<24} {:>10.4g} -> {:<10} {:<6} {:>+7.1f}%{}{}\n", where, measurement.name, c.value,
                       measurement.value, measurement.unit, c.change_fraction * 100,
                       c.regressed ? fmt::format("  REGRESSED (tolerance {:.0f}%)", c.tolerance_fraction * 100) : "",
                       c.node_is_new ? " (vs the fleet median: node is new)" : "")});
    }
  }
  // Regressions first, then the largest changes.
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    if (a.regressed != b.regressed) return a.regressed;
    return std::abs(a.change) > std::abs(b.change);
  });
  std::string text =
      fmt::format("Metrics compared: {}, regressed: {}; changed by 1% or more: {}\n", metrics, regressed, lines.size());
  for (const auto& line : lines) text += line.text;
  return text;
}

}  // namespace

int BaselineVerb(const CommandLine& command) {
  std::vector<Run> runs;
  for (const auto& path : command.baseline_from) {
    auto run = ReadResults(path);
    if (!run) {
      std::cerr << "gpuconform: " << run.error() << "\n";
      return 2;
    }
    runs.push_back(std::move(*run));
  }
  std::string origin;
  for (const auto& path : command.baseline_from) origin += (origin.empty() ? "" : ", ") + path;
  const Baseline baseline = BaselineFromRuns(runs, origin);
  if (baseline.metrics.empty()) {
    std::cerr << "gpuconform: " << origin
              << ": no metric with a floor or ceiling and a number; a baseline of them would compare nothing\n";
    return 2;
  }
  auto written = WriteFileAtomically(command.out, RenderBaselineJson(baseline, UtcIso8601()));
  if (!written) {
    std::cerr << "gpuconform: " << written.error() << "\n";
    return 2;
  }
  std::cout << "baseline: " << command.out << " (" << baseline.metrics.size() << " metrics from " << runs.size()
            << " run(s)); compare with it: gpuconform run --baseline " << command.out << " ...\n";
  return 0;
}

int DiffVerb(const CommandLine& command) {
  auto older = ReadResults(command.diff_old);
  if (!older) {
    std::cerr << "gpuconform: " << older.error() << "\n";
    return 2;
  }
  auto newer = ReadResults(command.diff_new);
  if (!newer) {
    std::cerr << "gpuconform: " << newer.error() << "\n";
    return 2;
  }
  const RegressionTolerance tolerance = Tolerances(command, *newer);
  const std::vector<CheckResult> compared =
      CompareWithBaseline(newer->cases, BaselineFromRuns({*older}, command.diff_old), tolerance);
  std::cout << "Old: " << command.diff_old << ": " << Describe(older->record) << "\n"
            << "New: " << command.diff_new << ": " << Describe(newer->record) << "\n"
            << NodesLine(older->record, newer->record) << VerdictChanges(*older, compared) << MetricChanges(compared);
  const int status = ExitStatusFor(compared);
  std::cout << "New run: " << ExitMeaning(status) << " (exit " << status << ")\n";
  return status;
}

int ReportVerb(const CommandLine& command) {
  Run run;
  std::vector<MetricTrend> trends;
  if (IsSqliteFile(command.report_input)) {
    auto store = HistoryStore::Open(command.report_input, kReaderLockTimeout);
    Result<std::string> newest = store ? (*store)->NewestRunId(false) : Result<std::string>(Error{store.error()});
    Result<Run> loaded =
        newest ? (*store)->LoadRun(*newest) : Result<Run>(Error{newest.error()});
    auto history =
        loaded ? (*store)->Trends(kReportTrendRuns, "", "") : Result<std::vector<MetricTrend>>(Error{loaded.error()});
    if (!history) {
      std::cerr << "gpuconform: " << history.error() << "\n";
      return 2;
    }
    run = std::move(*loaded);
    trends = std::move(*history);
  } else {
    auto read = ReadResults(command.report_input);
    if (!read) {
      std::cerr << "gpuconform: " << read.error() << "\n";
      return 2;
    }
    run = std::move(*read);
  }
  ReportSinks sinks;
  sinks.push_back(HtmlSink(command.html, std::move(trends)));
  return WriteReports(run, sinks, std::cout, std::cerr) ? 0 : 2;
}

int HistoryVerb(const CommandLine& command) {
  auto store = HistoryStore::Open(command.history, kReaderLockTimeout);
  if (!store) {
    std::cerr << "gpuconform: " << store.error() << "\n";
    return 2;
  }
  auto runs = (*store)->LastRuns(command.history_last);
  auto trends = runs ? (*store)->Trends(command.history_last, command.history_node, command.history_metric)
                     : Result<std::vector<MetricTrend>>(Error{runs.error()});
  if (!trends) {
    std::cerr << "gpuconform: " << trends.error() << "\n";
    return 2;
  }
  std::cout << fmt::format("{}: the newest {} run(s), oldest first\n", command.history, runs->size());
  std::cout << fmt::format("{:>3}  {:<20}  {:<8}  {:<12}  {:>4}  {:>4}  {:>4}  {:>4}  {}\n", "#", "started (UTC)",
                           "run", "profile", "exit", "fail", "regr", "err", "tags");
  for (std::size_t i = 0; i < runs->size(); ++i) {
    const HistoryRun& entry = (*runs)[i];
    std::string tags;
    for (const auto& [key, value] : entry.run.tags) tags += (tags.empty() ? "" : " ") + key + "=" + value;
    // A partial run (terminated, or a provisional report) says so beside its tags.
    if (!entry.run.complete()) tags = "(partial) " + tags;
    std::cout << fmt::format("{:>3}  {:<20}  {:<8}  {:<12}  {:>4}  {:>4}  {:>4}  {:>4}  {}\n", i + 1,
                             entry.run.started_utc, entry.run.run_id.substr(0, 8), entry.run.profile,
                             entry.run.exit_status, entry.fail, entry.regression, entry.error, tags);
  }
  if (trends->empty()) {
    std::cout << "No metric with a floor or ceiling" << (command.history_metric.empty() ? "" : " matches --metric")
              << (command.history_node.empty() ? "" : " on " + command.history_node) << ".\n";
    return 0;
  }
  std::cout << "\nTrends (" << (command.history_node.empty() ? "fleet median" : command.history_node)
            << " per run, oldest first; * marks a run where a tag or a Software version changed):\n";
  std::vector<std::string> changes;
  for (const auto& trend : *trends) {
    std::string line = fmt::format("  {}.{} {}{}:", trend.suite, trend.check, trend.metric,
                                   trend.unit.empty() ? "" : " (" + trend.unit + ")");
    for (const auto& point : trend.points) {
      line += fmt::format(" {:.4g}{}", point.value, point.change.empty() ? "" : "*");
    }
    if (trend.points.size() >= 2 && trend.points[trend.points.size() - 2].value != 0) {
      const double before = trend.points[trend.points.size() - 2].value;
      line += fmt::format("   last {:+.1f}%", (trend.points.back().value - before) / before * 100);
    }
    std::cout << line << "\n";
    for (const auto& point : trend.points) {
      const std::string change = "run " + point.run_id.substr(0, 8) + ": " + point.change;
      if (!point.change.empty() && std::find(changes.begin(), changes.end(), change) == changes.end()) {
        changes.push_back(change);
      }
    }
  }
  for (const auto& change : changes) std::cout << "  * " << change << "\n";
  return 0;
}

int MergeVerb(const CommandLine& command) {
  std::vector<MergeInput> inputs;
  for (const auto& path : command.merge_inputs) {
    auto read = ReadResults(path);
    if (!read) {
      std::cerr << "gpuconform: " << read.error() << "\n";
      return 2;
    }
    inputs.push_back({path, std::move(*read)});
  }
  MergedResults merged = MergeResults(std::move(inputs), NewRunId());
  Run& document = merged.document;
  int status = ExitStatusFor(document.cases);
  document.record.exit_status = status;
  const TerminalStyle style{false, false};
  std::cout << RenderTerminalReport(document.cases, style) << RenderSummary(CountChecks(document.cases), style);
  std::cout << "Merged " << command.merge_inputs.size() << " runs: " << document.record.nodes.size() << " node(s) judged";
  if (!document.record.not_covered.empty()) {
    std::cout << ", not covered by any: " << CompressHostlist(document.record.not_covered);
  }
  std::cout << "\n";
  if (!merged.conflicts.empty()) {
    std::cout << merged.conflicts.size()
              << " conflict(s); each case is kept from the newest run that judged its node:\n"
              << RenderConflicts(merged.conflicts);
  }
  if (!command.drain_plan.empty()) {
    // A dry run: the merged runs may be hours apart, and each run applies its own drains.
    DrainRequest drain;
    drain.plan_file = command.drain_plan;
    drain.max_drain = command.max_drain;
    if (!DecideDrains(drain, document.record.nodes, document.cases, document.record)) status = 2;
    document.record.exit_status = status;
  }
  document.stated_properties = {{"nodes", Join(document.record.nodes, ",")}};
  ReportSinks sinks;
  sinks.push_back(ResultsJsonSink(command.json_out));
  if (!command.junit.empty()) sinks.push_back(JunitFileSink(command.junit));
  if (!command.html.empty()) sinks.push_back(HtmlSink(command.html));
  if (!command.history.empty()) sinks.push_back(HistorySink(command.history, kReaderLockTimeout));
  if (!WriteReports(document, sinks, std::cout, std::cerr)) status = 2;
  return status;
}

}  // namespace gpuconform
