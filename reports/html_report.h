// The HTML report (`run --html FILE`, `gpuconform report RESULTS.json|HISTORY.sqlite --html
// FILE`): one self-contained file that a browser opens without network access (inline SVG and
// CSS, no script from anywhere else), readable at 10 nodes and at 10,000.
// It shows: the exit status and counts; a node x check heatmap with failing nodes first; per
// metric, its distribution across nodes with the floor, the baseline band and named outliers;
// busbw against message size for every allreduce source, with the floors; before/after bars
// against the baseline; the version-drift table (the majority and the odd nodes); from a
// history, each metric's trend over the last runs, marked where the image or versions changed;
// and every finding with its next step from the reason catalogue.
// Contract: RenderHtmlReport is pure; its size grows with the number of distinct problems, not
// with the number of conforming nodes (a 10,000-node report stays under 20 MB; the fleet
// snapshot's is about 55 kB): the heatmap gives a row to each distinct pattern of problems
// (nodes with the same verdicts share it, named as a hostlist) and folds the conforming nodes
// into one row; charts are binned; tables, lists of names and long messages are capped and
// say how much they left out. Every text from the run is HTML-escaped; the page names no URL
// and has no script. Stable ids for tools and tests: summary (data-exit-status), heatmap,
// findings, changes, busbw, distributions, versions, trends (only when trends are given).
// WriteHtmlReport publishes the file atomically.
#pragma once

#include <string>
#include <vector>

#include "harness/result.h"
#include "reports/results_reader.h"

namespace gpuconform {

// One metric over the last runs of a history (gpuconform history), oldest first.
struct TrendPoint {
  std::string run_id;
  std::string started_utc;
  double value = 0;
  // What changed since the previous point ("image=ngc-24.05", "driver 535 -> 550"); empty
  // when nothing did. A non-empty change is drawn as a marker.
  std::string change;
};
struct MetricTrend {
  std::string suite;
  std::string check;
  std::string metric;  // as a baseline knows it (baseline/baseline.h: MetricIdentity)
  std::string node;    // "" for a cluster-wide value or the fleet median
  std::string unit;
  std::vector<TrendPoint> points;
};

std::string RenderHtmlReport(const RunRecord& run, const std::vector<CheckResult>& results,
                             const std::vector<MetricTrend>& trends);
Result<bool> WriteHtmlReport(const std::string& path, const RunRecord& run, const std::vector<CheckResult>& results,
                             const std::vector<MetricTrend>& trends);

}  // namespace gpuconform
