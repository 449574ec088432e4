// The terminal report: like GoogleTest's, but aggregated across nodes — one line per
// check with its conforming/non-conforming node counts, then every finding with its node
// and message, then a summary. Pure: results in, text out (colour only when asked).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "results/report_sink.h"
#include "results/run_totals.h"

namespace gpuconform {

struct TerminalStyle {
  bool color = false;
  bool quiet = false;  // only non-conforming checks, errors and the summary
};

std::string RenderTerminalReport(const std::vector<CheckResult>& results, const TerminalStyle& style);
std::string RenderSummary(const RunTotals& totals, const TerminalStyle& style);
// Once, after the report: the snapshot files a replay lacks and the checks they leave
// unjudged (snapshot_gaps.h); empty when none is missing.
std::string RenderSnapshotGaps(const std::vector<CheckResult>& results, const std::string& run_profile,
                               const std::string& capture_profile, const TerminalStyle& style);

// The terminal report of a run as a sink (results/report_sink.h): the report, the snapshot's
// gaps, the summary and, for a run that covers only part of the controller's nodes, the
// coverage line, printed to `out`. Announces nothing.
std::unique_ptr<ReportSink> TerminalSink(std::ostream& out, TerminalStyle style, bool require_all_nodes = false);

}  // namespace gpuconform
