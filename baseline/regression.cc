#include "baseline/regression.h"

#include <fmt/format.h>

#include <cmath>

#include "harness/util/metric_bound.h"

namespace gpuconform {

namespace {

const char* FamilyName(MetricFamily family) {
  switch (family) {
    case MetricFamily::kBandwidth:
      return "bandwidths";
    case MetricFamily::kTime:
      return "times";
    case MetricFamily::kOther:
      break;
  }
  return "other metrics";
}

std::string Shown(double value) { return fmt::format("{:.4g}", value); }

// "busbw@64MiB 0.077 GB/s is 20.0% below the baseline's 0.096 GB/s (run 1a2b3c4d; tolerance
// 10% for bandwidths: <source>)".
std::string RegressionMessage(const std::string& node, const Measurement& measurement, const BaselineComparison& c,
                              const Baseline& baseline, MetricFamily family, const RegressionTolerance& tolerance) {
  const std::string unit = measurement.unit.empty() ? "" : " " + measurement.unit;
  std::string compared = c.node_is_new ? "the baseline's fleet median (" + node + " is new to it)" : "the baseline's";
  std::string runs;
  for (const auto& id : baseline.run_ids) runs += (runs.empty() ? "" : ", ") + id.substr(0, 8);
  const bool from_profile = tolerance.source != kDefaultRegressionSource;
  return fmt::format("{}{} {}{} is {:.1f}% {} {} {}{} (baseline {}{}; tolerance {:.0f}% for {}, {})",
                     node.empty() ? "" : node + ": ", measurement.name, measurement.value, unit,
                     std::abs(c.change_fraction) * 100, c.change_fraction < 0 ? "below" : "above", compared,
                     Shown(c.value), unit, baseline.origin, runs.empty() ? "" : ", run " + runs,
                     c.tolerance_fraction * 100, FamilyName(family),
                     from_profile ? "from the profile's regression: section" : "gpuconform's default");
}

}  // namespace

MetricFamily FamilyOfUnit(const std::string& unit) {
  for (const char* bandwidth : {"GB/s", "Gbit/s", "MB/s", "GiB/s", "MiB/s", "Gb/s"}) {
    if (unit == bandwidth) return MetricFamily::kBandwidth;
  }
  for (const char* time : {"s", "ms", "us", "ns"}) {
    if (unit == time) return MetricFamily::kTime;
  }
  return MetricFamily::kOther;
}

std::optional<double> ToleranceFor(MetricFamily family, const RegressionTolerance& tolerance) {
  switch (family) {
    case MetricFamily::kBandwidth:
      return tolerance.bandwidth_fraction;
    case MetricFamily::kTime:
      return tolerance.time_fraction;
    case MetricFamily::kOther:
      break;
  }
  return std::nullopt;
}

std::vector<CheckResult> CompareWithBaseline(std::vector<CheckResult> results, const Baseline& baseline,
                                             const RegressionTolerance& tolerance) {
  for (auto& result : results) {
    std::vector<Finding> regressions;
    for (auto& measurement : result.measurements) {
      const MetricBound bound = ParseMetricBound(measurement.threshold);
      const auto value = MetricNumber(measurement.value);
      if (bound.better.empty() || !value) continue;
      const MetricFamily family = FamilyOfUnit(measurement.unit);
      const auto allowed = ToleranceFor(family, tolerance);
      if (!allowed) continue;
      const auto it =
          baseline.metrics.find({result.suite, result.check, MetricIdentity(result.node, measurement.name)});
      if (it == baseline.metrics.end() || it->second.better != bound.better) continue;
      const BaselineMetric& reference = it->second;
      BaselineComparison comparison;
      comparison.compared = true;
      const auto node_value = reference.by_node.find(result.node);
      comparison.node_is_new = !result.node.empty() && node_value == reference.by_node.end();
      comparison.value = node_value != reference.by_node.end() ? node_value->second : reference.fleet_median;
      if (!(comparison.value > 0)) continue;  // no ratio to a zero
      comparison.change_fraction = (*value - comparison.value) / comparison.value;
      comparison.tolerance_fraction = *allowed;
      const double worse_by = bound.better == "higher" ? -comparison.change_fraction : comparison.change_fraction;
      comparison.regressed = worse_by > *allowed;
      measurement.baseline = comparison;
      if (comparison.regressed) {
        regressions.push_back({"metric-regression", result.node.empty() ? measurement.name : result.node,
                               RegressionMessage(result.node, measurement, comparison, baseline, family, tolerance)});
      }
    }
    if (regressions.empty()) continue;
    if (result.verdict == Verdict::kPass) {
      result.verdict = Verdict::kRegression;
      result.findings = std::move(regressions);
    } else if (result.verdict == Verdict::kFail) {
      result.findings.insert(result.findings.end(), regressions.begin(), regressions.end());
    }
  }
  return results;
}

}  // namespace gpuconform
