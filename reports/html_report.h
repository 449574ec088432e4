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

#include "harness/util/result.h"
#include "results/metrics.h"
#include "results/run.h"

namespace gpuconform {

std::string RenderHtmlReport(const Run& run, const std::vector<MetricTrend>& trends);
Result<bool> WriteHtmlReport(const std::string& path, const Run& run, const std::vector<MetricTrend>& trends);

}  // namespace gpuconform
