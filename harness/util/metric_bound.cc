#include "harness/util/metric_bound.h"

#include <cmath>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform {

std::optional<double> MetricNumber(std::string_view text) {
  const auto value = WholeNumber(Trim(text));
  return value && std::isfinite(*value) ? value : std::nullopt;
}

MetricBound ParseMetricBound(const std::string& threshold) {
  const std::string_view text = Trim(threshold);
  MetricBound bound;
  std::string_view rest;
  if (text.starts_with(">=") || text.starts_with("<=")) {
    rest = text.substr(2);
  } else if (text.starts_with(">") || text.starts_with("<")) {
    rest = text.substr(1);
  } else {
    return bound;
  }
  // "460 GB/s": the number, then its unit.
  rest = Trim(rest);
  const auto value = MetricNumber(rest.substr(0, rest.find(' ')));
  if (!value) return bound;
  if (text.front() == '>') {
    bound.better = "higher";
    bound.floor = value;
  } else {
    bound.better = "lower";
    bound.ceiling = value;
  }
  return bound;
}

}  // namespace gpuconform
