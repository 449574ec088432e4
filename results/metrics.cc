#include "results/metrics.h"

#include "harness/util/metric_bound.h"

namespace gpuconform {

std::string MetricIdentity(const std::string& node, const std::string& name) {
  if (node.empty() || name.size() <= node.size() + 1 || !name.starts_with(node)) return name;
  const char separator = name[node.size()];
  return separator == '.' || separator == '/' ? name.substr(node.size() + 1) : name;
}

std::vector<DirectedMetric> DirectedMetrics(const std::vector<CheckResult>& results) {
  std::vector<DirectedMetric> metrics;
  for (const auto& result : results) {
    for (const auto& measurement : result.measurements) {
      const MetricBound bound = ParseMetricBound(measurement.threshold);
      const auto value = MetricNumber(measurement.value);
      if (bound.better.empty() || !value) continue;
      metrics.push_back({{result.suite, result.check, MetricIdentity(result.node, measurement.name)},
                         result.node,
                         *value,
                         measurement.unit,
                         bound.better});
    }
  }
  return metrics;
}

}  // namespace gpuconform
