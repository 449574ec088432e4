// A baseline: what each metric measured in one or more reference runs, per node and as the
// fleet median, to judge a new run against (run --baseline, gpuconform diff).
// Contract: pure. Only metrics with a direction (a floor or a ceiling: harness/util/metric_bound.h)
// and a numeric value enter a baseline. A metric is known by suite, check and name, with the
// node's own prefix taken off ("node1.p2p_min" on node1 is "p2p_min"), so that a node new to
// the fleet can be compared with the fleet median of the same metric. Errors name the file.
#pragma once

#include <compare>
#include <map>
#include <string>
#include <vector>

#include "harness/util/result.h"
#include "reports/results_reader.h"
#include "results/metrics.h"

namespace gpuconform {

inline constexpr int kBaselineSchemaVersion = 1;
inline constexpr char kBaselineKind[] = "gpuconform-baseline";

struct BaselineMetric {
  std::string unit;
  std::string better;                     // "higher" or "lower"
  std::map<std::string, double> by_node;  // per-node cases: each node's median across the runs
  double fleet_median = 0;                // across nodes and runs; a cluster-wide case's value
};

struct Baseline {
  std::string origin;                // the file(s) it was read or built from, for messages
  std::vector<std::string> run_ids;  // the runs it summarises
  std::map<MetricKey, BaselineMetric> metrics;
};

// The median of the values (the mean of the middle two for an even count); 0 for none.
double Median(std::vector<double> values);

// One baseline from one or more runs: per node the median across runs, per metric the median
// across nodes and runs.
Baseline BaselineFromRuns(const std::vector<Run>& runs, const std::string& origin);

// Either kind of file: a results document (run --json) or a baseline document (gpuconform
// baseline --out); `origin` names it in errors.
Result<Baseline> ParseBaseline(const std::string& text, const std::string& origin);

// The baseline document (schemas/baseline.schema.json).
std::string RenderBaselineJson(const Baseline& baseline, const std::string& created_utc);

}  // namespace gpuconform
