#include "reports/json_report.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "harness/core/reason_catalogue.h"
#include "harness/util/atomic_file.h"
#include "harness/util/metric_bound.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform {

namespace {

nlohmann::json Metric(const Measurement& measurement) {
  nlohmann::json metric = {{"name", measurement.name}, {"unit", measurement.unit}};
  const auto number = MetricNumber(measurement.value);
  metric["value"] = number ? nlohmann::json(*number) : nlohmann::json(measurement.value);
  const MetricBound bound = ParseMetricBound(measurement.threshold);
  if (!bound.better.empty()) metric["better"] = bound.better;
  if (bound.floor) metric["floor"] = *bound.floor;
  if (bound.ceiling) metric["ceiling"] = *bound.ceiling;
  if (!measurement.threshold.empty()) metric["threshold"] = measurement.threshold;
  if (!measurement.source.empty()) metric["source"] = measurement.source.str();
  if (const BaselineComparison& baseline = measurement.baseline; baseline.compared) {
    metric["baseline"] = {{"value", baseline.value},
                          {"change_fraction", baseline.change_fraction},
                          {"compared_with", baseline.node_is_new ? "fleet median" : "node"},
                          {"tolerance_fraction", baseline.tolerance_fraction},
                          {"regressed", baseline.regressed}};
  }
  return metric;
}

nlohmann::json Reason(const Finding& finding) {
  nlohmann::json reason = {{"code", std::string(finding.code.code())}, {"message", finding.message}};
  if (!finding.entity.empty()) reason["entity"] = finding.entity;
  if (const ReasonEntry* entry = FindReason(finding.code.code())) {
    reason["fault_class"] = std::string(FaultClassName(entry->fault_class));
    reason["next_step"] = std::string(entry->next_step);
  }
  return reason;
}

nlohmann::json ResultEntry(const CheckResult& result) {
  nlohmann::json entry = {{"suite", result.suite},
                          {"check", result.check},
                          {"node", result.node.empty() ? nlohmann::json(nullptr) : nlohmann::json(result.node)},
                          {"verdict", VerdictName(result.verdict)},
                          {"duration_s", result.time_s},
                          {"reasons", nlohmann::json::array()},
                          {"metrics", nlohmann::json::array()}};
  for (const auto& finding : result.findings) entry["reasons"].push_back(Reason(finding));
  for (const auto& measurement : result.measurements) entry["metrics"].push_back(Metric(measurement));
  return entry;
}

// Invalid UTF-8 from a tool's output becomes U+FFFD: a strict reader would reject the whole file.
std::string Dump(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Everything but "results"; the summary counts the results.
nlohmann::json DocumentWithoutResults(const std::vector<CheckResult>& results, const RunRecord& run) {
  nlohmann::json tags = nlohmann::json::object();
  for (const auto& [key, value] : run.tags) tags[key] = value;
  nlohmann::json manifest = nlohmann::json::object();
  for (const auto& [key, value] : run.snapshot_manifest) manifest[key] = value;
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& node : run.nodes) nodes.push_back(node);
  nlohmann::json document = {
      {"schema_version", kResultsSchemaVersion},
      {"run",
       {{"run_id", run.run_id},
        {"started_utc", run.started_utc},
        {"ended_utc", run.ended_utc},
        {"gpuconform_version", run.gpuconform_version},
        {"profile", run.profile},
        {"hostname", run.hostname},
        {"mode", run.mode},
        {"filter", run.filter},
        {"slurm_job_id", run.slurm_job_id ? nlohmann::json(*run.slurm_job_id) : nlohmann::json(nullptr)},
        {"nodes", nodes},
        {"snapshot_manifest", run.mode == "live" ? nlohmann::json(nullptr) : manifest},
        {"tags", tags},
        {"exit_status", run.exit_status},
        {"complete", run.complete()}}},
      {"summary", {{"cases", results.size()}, {"pass", 0}, {"fail", 0}, {"error", 0}, {"skip", 0}, {"regression", 0}}}};
  if (!run.complete()) document["run"]["incomplete"] = run.incomplete;
  if (run.baseline_origin) {
    document["run"]["baseline"] = {{"origin", *run.baseline_origin}, {"run_ids", run.baseline_run_ids}};
  }
  const double listed = static_cast<double>(run.nodes.size() + run.not_covered.size());
  document["run"]["coverage"] = {{"judged_nodes", run.nodes.size()},
                                 {"not_covered", run.not_covered},
                                 {"fraction", listed == 0 ? 1.0 : static_cast<double>(run.nodes.size()) / listed}};
  if (!run.node_actions.empty()) {
    nlohmann::json actions = nlohmann::json::array();
    for (const auto& action : run.node_actions) {
      actions.push_back({{"node", action.node},
                         {"action", action.action},
                         {"why", action.why},
                         {"slurm_reason", action.slurm_reason},
                         {"outcome", action.outcome}});
    }
    document["run"]["node_actions"] = actions;
  }
  for (const auto& result : results) {
    nlohmann::json& count = document["summary"][VerdictName(result.verdict)];
    count = count.get<int>() + 1;
  }
  return document;
}

}  // namespace

nlohmann::json RenderResultsJson(const Run& run) {
  const std::vector<CheckResult>& results = run.cases;
  nlohmann::json document = DocumentWithoutResults(results, run.record);
  document["results"] = nlohmann::json::array();
  for (const auto& result : results) document["results"].push_back(ResultEntry(result));
  return document;
}

void WriteResultsJsonTo(const Run& run, const std::function<void(std::string_view)>& sink) {
  const std::vector<CheckResult>& results = run.cases;
  // nlohmann sorts an object's keys, so "results" comes first, before "run", "schema_version"
  // and "summary"; the rest of the document is small and dumped whole.
  const std::string rest = Dump(DocumentWithoutResults(results, run.record));  // "{\n  \"run\": ..."
  if (results.empty()) {
    sink("{\n  \"results\": [],\n");
  } else {
    sink("{\n  \"results\": [\n");
    std::string entry;
    for (std::size_t i = 0; i < results.size(); ++i) {
      entry = i == 0 ? "    " : ",\n    ";
      // A dumped string holds no raw newline (JSON escapes it), so every newline is a line break.
      for (const char c : Dump(ResultEntry(results[i]))) {
        entry += c;
        if (c == '\n') entry += "    ";
      }
      sink(entry);
    }
    sink("\n  ],\n");
  }
  sink(std::string_view(rest).substr(2));
  sink("\n");
}

std::string RenderResultsJsonText(const Run& run) {
  std::string text;
  WriteResultsJsonTo(run, [&text](std::string_view piece) { text.append(piece); });
  return text;
}

// Streamed into the file: at 10,000 nodes the document is some 220 MB, and as one
// nlohmann::json it would take several times that.
Result<bool> WriteResultsJson(const std::string& path, const Run& run) {
  auto file = AtomicFileWriter::Open(path);
  if (!file.ok()) return Error{file.error()};
  AtomicFileWriter& writer = **file;
  WriteResultsJsonTo(run, [&writer](std::string_view piece) { writer.Append(piece); });
  return writer.Commit();
}


}  // namespace gpuconform
