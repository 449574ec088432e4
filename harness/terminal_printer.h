// The terminal report: like GoogleTest's, but aggregated across nodes — one line per
// check with its conforming/non-conforming node counts, then every finding with its node
// and message, then a summary. Pure: results in, text out (colour only when asked).
#pragma once

#include <string>
#include <vector>

#include "harness/verdict.h"

namespace gpuconform {

struct TerminalStyle {
  bool color = false;
  bool quiet = false;  // only non-conforming checks, errors and the summary
};

struct RunTotals {
  int checks = 0;
  int cases = 0;
  int passed = 0;   // checks whose every case conforms
  int failed = 0;   // checks with at least one non-conforming case
  int errored = 0;  // checks with an error but no failure or regression
  int skipped = 0;  // checks skipped on every case
  int regressed = 0;  // checks that conform but have a metric worse than the baseline's
};

RunTotals CountChecks(const std::vector<CheckResult>& results);

std::string RenderTerminalReport(const std::vector<CheckResult>& results, const TerminalStyle& style);
std::string RenderSummary(const RunTotals& totals, const TerminalStyle& style);
// Once, after the report: the snapshot files a replay lacks and the checks they leave
// unjudged (snapshot_gaps.h); empty when none is missing.
std::string RenderSnapshotGaps(const std::vector<CheckResult>& results, const std::string& run_profile,
                               const std::string& capture_profile, const TerminalStyle& style);

// Exit status per the contract: 1 any failure, else 4 any regression against the baseline,
// else 3 any error, else 0 (2, a bad invocation or an unwritable report, is the caller's).
int ExitStatusFor(const std::vector<CheckResult>& results);
// What an exit status means, in a few words: "non-conformance found".
std::string ExitMeaning(int status);

}  // namespace gpuconform
