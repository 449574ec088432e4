// A run's metrics as baselines, histories and charts know them: a metric is known by suite,
// check and name, with the node's own prefix taken off, so a node new to the fleet can be
// compared with the fleet median of the same metric; and a metric's trend over several runs.
// Pure.
#pragma once

#include <compare>
#include <string>
#include <vector>

#include "harness/core/verdict.h"

namespace gpuconform {

struct MetricKey {
  std::string suite;
  std::string check;
  std::string metric;  // without the node's prefix
  auto operator<=>(const MetricKey&) const = default;
};

// The metric's name as baselines and histories know it: "node1.p2p_min" or
// "node1/mlx5_0.speed" on node1 is "p2p_min" or "mlx5_0.speed"; other names are kept.
std::string MetricIdentity(const std::string& node, const std::string& name);

// The metrics with a direction and a number in these results, one entry each (cluster-wide
// cases have node ""), in order: what a baseline is built from and what a run is compared by.
struct DirectedMetric {
  MetricKey key;
  std::string node;
  double value = 0;
  std::string unit;
  std::string better;
};
std::vector<DirectedMetric> DirectedMetrics(const std::vector<CheckResult>& results);

// One metric over the last runs of a history (gpuconform history), oldest first.
struct TrendPoint {
  std::string run_id;
  std::string started_utc;
  double value = 0;
  // What changed since the previous point ("image=ngc-24.05", "driver 535 -> 550"); empty
  // when nothing did. A non-empty change is drawn as a marker.
  std::string change;
};
struct MetricTrend {
  std::string suite;
  std::string check;
  std::string metric;  // as a baseline knows it (MetricIdentity)
  std::string node;    // "" for a cluster-wide value or the fleet median
  std::string unit;
  std::vector<TrendPoint> points;
};

}  // namespace gpuconform
