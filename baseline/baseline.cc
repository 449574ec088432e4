#include "baseline/baseline.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "harness/util/metric_bound.h"
#include "harness/util/version.h"

namespace gpuconform {

namespace {

using nlohmann::json;


Result<Baseline> ParseBaselineDocument(const json& document, const std::string& origin) {
  if (document.value("schema_version", 0) != kBaselineSchemaVersion) {
    return Error{origin + ": baseline schema_version " + document.value("schema_version", json()).dump() +
                 "; this gpuconform reads version " + std::to_string(kBaselineSchemaVersion)};
  }
  Baseline baseline;
  baseline.origin = origin;
  try {
    for (const auto& id : document.at("run_ids")) baseline.run_ids.push_back(id.get<std::string>());
    const json& metrics = document.at("metrics");
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      const json& entry = metrics[i];
      const std::string where = origin + ": metrics[" + std::to_string(i) + "]";
      const std::string better = entry.at("better").get<std::string>();
      if (better != "higher" && better != "lower") return Error{where + ".better: expected higher or lower"};
      BaselineMetric metric{entry.at("unit").get<std::string>(), better, {}, entry.at("fleet_median").get<double>()};
      for (const auto& [node, value] : entry.at("nodes").items()) metric.by_node[node] = value.get<double>();
      baseline.metrics[{entry.at("suite").get<std::string>(), entry.at("check").get<std::string>(),
                        entry.at("metric").get<std::string>()}] = std::move(metric);
    }
  } catch (const json::exception& e) {
    return Error{origin + ": not a valid baseline document: " + e.what()};
  }
  return baseline;
}

}  // namespace

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

Baseline BaselineFromRuns(const std::vector<Run>& runs, const std::string& origin) {
  struct Collected {
    std::string unit, better;
    std::map<std::string, std::vector<double>> by_node;
    std::vector<double> all;
  };
  std::map<MetricKey, Collected> collected;
  Baseline baseline;
  baseline.origin = origin;
  for (const auto& run : runs) {
    baseline.run_ids.push_back(run.record.run_id);
    for (const auto& metric : DirectedMetrics(run.cases)) {
      Collected& entry = collected[metric.key];
      entry.unit = metric.unit;
      entry.better = metric.better;
      if (!metric.node.empty()) entry.by_node[metric.node].push_back(metric.value);
      entry.all.push_back(metric.value);
    }
  }
  for (auto& [key, entry] : collected) {
    BaselineMetric metric{entry.unit, entry.better, {}, Median(entry.all)};
    for (auto& [node, values] : entry.by_node) metric.by_node[node] = Median(values);
    baseline.metrics[key] = std::move(metric);
  }
  return baseline;
}

Result<Baseline> ParseBaseline(const std::string& text, const std::string& origin) {
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    return Error{origin +
                 ": not JSON (a baseline is a results document from run --json FILE, or the output of "
                 "gpuconform baseline)"};
  }
  if (document.is_object() && document.value("kind", "") == kBaselineKind)
    return ParseBaselineDocument(document, origin);
  auto run = ParseResultsDocument(text, origin);
  if (!run) return Error{run.error()};
  return BaselineFromRuns({std::move(*run)}, origin);
}

std::string RenderBaselineJson(const Baseline& baseline, const std::string& created_utc) {
  json metrics = json::array();
  for (const auto& [key, metric] : baseline.metrics) {
    json nodes = json::object();
    for (const auto& [node, value] : metric.by_node) nodes[node] = value;
    metrics.push_back({{"suite", key.suite},
                       {"check", key.check},
                       {"metric", key.metric},
                       {"unit", metric.unit},
                       {"better", metric.better},
                       {"fleet_median", metric.fleet_median},
                       {"nodes", nodes}});
  }
  const json document = {{"kind", kBaselineKind},
                         {"schema_version", kBaselineSchemaVersion},
                         {"created_utc", created_utc},
                         {"gpuconform_version", kVersion},
                         {"built_from", baseline.origin},
                         {"run_ids", baseline.run_ids},
                         {"metrics", metrics}};
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace gpuconform
