// What a run's cases add up to, the same for every report: the cases grouped by check (a
// check's per-node cases together), each check's verdict, the run's totals, and the exit
// status with its meaning. Pure.
#pragma once

#include <string>
#include <vector>

#include "harness/core/verdict.h"

namespace gpuconform {

// One check's cases: consecutive cases of the same Suite.Check (results are in suite order).
struct CheckGroup {
  std::string suite;
  std::string check;
  std::vector<const CheckResult*> cases;
};
std::vector<CheckGroup> GroupByCheck(const std::vector<CheckResult>& results);

struct GroupCounts {
  int pass = 0, fail = 0, error = 0, skip = 0, regression = 0;
};
GroupCounts Count(const CheckGroup& group);
// A check's verdict from its cases': fail, else regression, else error, else pass, else skip.
Verdict GroupVerdict(const GroupCounts& counts);

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

// Exit status per the contract: 1 any failure, else 4 any regression against the baseline,
// else 3 any error, else 0 (2, a bad invocation or an unwritable report, is the caller's).
int ExitStatusFor(const std::vector<CheckResult>& results);
// What an exit status means, in a few words: "non-conformance found".
std::string ExitMeaning(int status);

}  // namespace gpuconform
