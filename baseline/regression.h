// Judges a run against a baseline (run --baseline, gpuconform diff): every metric with a
// direction that the baseline also has gets a BaselineComparison. One that moved the wrong way
// by more than its family's tolerance (the profile's regression: section) is a regression: a
// metric-regression finding that names the node, the metric, both values and the change in %;
// a passing case becomes Verdict::kRegression, a failing one stays failing with the finding
// added.
// Contract: pure. A node the baseline lacks is compared with the baseline's fleet median,
// and says so. Metrics whose unit is neither a bandwidth nor a time, and baseline values of
// 0, are not compared.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "baseline/baseline.h"
#include "baseline/regression_profile.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"

namespace gpuconform {

// The metric families the comparison knows, by unit.
enum class MetricFamily { kBandwidth, kTime, kOther };
MetricFamily FamilyOfUnit(const std::string& unit);
// The family's tolerance, or nothing when the family is not compared.
std::optional<double> ToleranceFor(MetricFamily family, const RegressionTolerance& tolerance);

std::vector<CheckResult> CompareWithBaseline(std::vector<CheckResult> results, const Baseline& baseline,
                                             const RegressionTolerance& tolerance);

}  // namespace gpuconform
