// What a measurement's threshold text says about its metric: which way is better, and the
// bound. Read by the results document (reports/json_report) and the baseline comparison
// (baseline/regression), so both agree on which metrics have a direction.
// Contract: pure. Only "<", "<=", ">" and ">=" followed by a number give a direction; an
// equality ("== 8") or a text bound ("0600 or 0400") gives none.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuconform {

struct MetricBound {
  std::string better;  // "higher", "lower", or "" when the check sets no bound
  std::optional<double> floor;
  std::optional<double> ceiling;
};
// ">= 460" -> higher, floor 460; "<= 2.5 s" -> lower, ceiling 2.5.
MetricBound ParseMetricBound(const std::string& threshold);

// A whole-string finite number ("460", "0.91", "1e3"), else nothing: values like
// "535.129.03" or "up" stay text.
std::optional<double> MetricNumber(std::string_view text);

}  // namespace gpuconform
