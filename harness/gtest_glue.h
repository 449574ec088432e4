// GoogleTest glue: one registered test per CheckResult, run under GoogleTest's filter.
// Contract: the test bodies only replay verdicts computed before (no I/O, no MPI), so a
// rank can never block inside a test. kFail -> ADD_FAILURE per finding; kError -> a failure
// marked as an error in our own report; kSkip -> GTEST_SKIP; measurements -> RecordProperty.
// Returns the results of the tests the filter selected, in run order.
#pragma once

#include <string>
#include <vector>

#include "harness/verdict.h"

namespace gpuconform {

// `--filter` is GoogleTest syntax over Suite.Check; a pattern without a wildcard or '/'
// also selects that check's per-node cases (Suite.Check/node1, ...).
std::string ExpandCheckFilter(const std::string& filter);

std::vector<CheckResult> RunAsGtests(const std::vector<CheckResult>& results, const std::string& filter);

}  // namespace gpuconform
