// GoogleTest glue: one registered test per CheckResult, run under GoogleTest's filter.
// Contract: the test bodies only replay verdicts computed before (no I/O, no MPI), so a
// rank can never block inside a test. kFail -> ADD_FAILURE per finding; kError -> a failure
// marked as an error in our own report; kSkip -> GTEST_SKIP; measurements -> RecordProperty.
// GoogleTest holds each finding's code only; the messages live in the results.
// Returns the results of the tests the filter selected, in run order.
#pragma once

#include <string>
#include <vector>

#include "harness/verdict.h"

namespace gpuconform {

// `--filter` is GoogleTest syntax over Suite.Check; a pattern without a wildcard or '/'
// also selects that check's per-node cases (Suite.Check/node1, ...).
std::string ExpandCheckFilter(const std::string& filter);

// `filter` with `check` ("Launch.WorldFormed") added to its positive part, so that check is
// reported whatever the user selected (a negative pattern that names it still wins).
std::string FilterAlsoSelecting(const std::string& filter, const std::string& check);

// Could the filter select any case of Suite.Check? Judged on the positive patterns with
// any "/node" part dropped, and conservative: a suite it may select has its probes run, so
// `--filter 'Munge.*'` does not run an allreduce sweep.
bool FilterMaySelect(const std::string& filter, const std::string& suite, const std::string& check);

// Takes the results (the selected ones are moved out, not copied: a fleet has 300,000).
std::vector<CheckResult> RunAsGtests(std::vector<CheckResult> results, const std::string& filter);

}  // namespace gpuconform
