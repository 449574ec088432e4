// The case filter, `--filter` in GoogleTest's syntax over Suite.Check (POSITIVE[-NEGATIVE],
// patterns separated by ':', '*' any run, '?' one character), applied once: before probing,
// to choose the suites whose probes run (FilterMaySelect), and after judging, to choose the
// cases every report shows (SelectCases). Pure.
#pragma once

#include <string>
#include <vector>

#include "harness/core/verdict.h"

namespace gpuconform {

// A pattern without a wildcard or '/' also selects that check's per-node cases
// (Suite.Check/node1, ...): "Munge.KeyIdentical" -> "Munge.KeyIdentical:Munge.KeyIdentical/*".
std::string ExpandCheckFilter(const std::string& filter);

// `filter` with `check` ("Launch.WorldFormed") added to its positive part, so that check is
// reported whatever the user selected (a negative pattern that names it still wins).
std::string FilterAlsoSelecting(const std::string& filter, const std::string& check);

// Could the filter select any case of Suite.Check? Judged on the positive patterns with
// any "/node" part dropped, and conservative: a suite it may select has its probes run, so
// `--filter 'Munge.*'` does not run an allreduce sweep.
bool FilterMaySelect(const std::string& filter, const std::string& suite, const std::string& check);

// Does the filter select the case named `test_name` ("Suite.Check" or "Suite.Check/node")? As
// GoogleTest's --gtest_filter would, after ExpandCheckFilter: a positive pattern matches the
// whole name, and no negative one does.
bool FilterSelects(const std::string& filter, const std::string& test_name);

// The cases the filter selects, in their order (moved, not copied: a fleet has 300,000).
std::vector<CheckResult> SelectCases(std::vector<CheckResult> results, const std::string& filter);

}  // namespace gpuconform
