#include "reports/results_reader.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gpuconform {

namespace {

using nlohmann::json;

// A field that is missing or of the wrong type ends the read; the message names its path.
class DocumentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

const json& Member(const json& object, const std::string& key, const std::string& path) {
  if (!object.is_object() || !object.contains(key)) throw DocumentError(path + "." + key + ": missing");
  return object.at(key);
}

std::string Text(const json& object, const std::string& key, const std::string& path) {
  const json& value = Member(object, key, path);
  if (!value.is_string()) throw DocumentError(path + "." + key + ": expected a string, got " + value.dump());
  return value.get<std::string>();
}

std::string OptionalText(const json& object, const std::string& key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

double Number(const json& object, const std::string& key, const std::string& path) {
  const json& value = Member(object, key, path);
  if (!value.is_number()) throw DocumentError(path + "." + key + ": expected a number, got " + value.dump());
  return value.get<double>();
}

Verdict KnownVerdict(const std::string& name, const std::string& path) {
  if (const auto verdict = VerdictNamed(name)) return *verdict;
  throw DocumentError(path + ".verdict: unknown verdict '" + name + "'");
}

Measurement ReadMetric(const json& metric, const std::string& path) {
  Measurement measurement;
  measurement.name = Text(metric, "name", path);
  measurement.unit = Text(metric, "unit", path);
  const json& value = Member(metric, "value", path);
  if (value.is_string()) {
    measurement.value = value.get<std::string>();
  } else if (value.is_number()) {
    measurement.value = value.dump();  // the shortest text that reads back as the same double
  } else {
    throw DocumentError(path + ".value: expected a number or a string, got " + value.dump());
  }
  measurement.threshold = OptionalText(metric, "threshold");
  measurement.source = OptionalText(metric, "source");
  if (const auto it = metric.find("baseline"); it != metric.end() && it->is_object()) {
    const std::string at = path + ".baseline";
    BaselineComparison baseline;
    baseline.compared = true;
    baseline.value = Number(*it, "value", at);
    baseline.change_fraction = Number(*it, "change_fraction", at);
    baseline.tolerance_fraction = Number(*it, "tolerance_fraction", at);
    baseline.node_is_new = Text(*it, "compared_with", at) != "node";
    baseline.regressed = Member(*it, "regressed", at).get<bool>();
    measurement.baseline = baseline;
  }
  return measurement;
}

Finding ReadReason(const json& reason, const std::string& path) {
  const std::string code = Text(reason, "code", path);
  const auto known = ReasonCode::Find(code);
  if (!known) {
    throw DocumentError(path + ".code: '" + code +
                        "' is not in this gpuconform's reason catalogue (a document from a newer version?)");
  }
  return Finding{*known, OptionalText(reason, "entity"), Text(reason, "message", path)};
}

CheckResult ReadResult(const json& entry, const std::string& path) {
  CheckResult result;
  result.suite = Text(entry, "suite", path);
  result.check = Text(entry, "check", path);
  const json& node = Member(entry, "node", path);
  result.node = node.is_string() ? node.get<std::string>() : "";
  result.verdict = KnownVerdict(Text(entry, "verdict", path), path);
  result.time_s = Number(entry, "duration_s", path);
  const json& reasons = Member(entry, "reasons", path);
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    result.findings.push_back(ReadReason(reasons[i], path + ".reasons[" + std::to_string(i) + "]"));
  }
  const json& metrics = Member(entry, "metrics", path);
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    result.measurements.push_back(ReadMetric(metrics[i], path + ".metrics[" + std::to_string(i) + "]"));
  }
  return result;
}

RunRecord ReadRun(const json& run) {
  const std::string path = "run";
  RunRecord record;
  record.run_id = Text(run, "run_id", path);
  record.started_utc = Text(run, "started_utc", path);
  record.ended_utc = Text(run, "ended_utc", path);
  record.gpuconform_version = Text(run, "gpuconform_version", path);
  record.profile = Text(run, "profile", path);
  record.hostname = OptionalText(run, "hostname");
  record.mode = Text(run, "mode", path);
  record.filter = OptionalText(run, "filter");
  if (const auto it = run.find("slurm_job_id"); it != run.end() && it->is_string()) record.slurm_job_id = *it;
  for (const auto& node : Member(run, "nodes", path)) {
    if (node.is_string()) record.nodes.push_back(node.get<std::string>());
  }
  if (const auto it = run.find("snapshot_manifest"); it != run.end() && it->is_object()) {
    for (const auto& [key, value] : it->items()) {
      if (value.is_string()) record.snapshot_manifest[key] = value.get<std::string>();
    }
  }
  if (const auto it = run.find("tags"); it != run.end() && it->is_object()) {
    for (const auto& [key, value] : it->items()) {
      if (value.is_string()) record.tags.emplace_back(key, value.get<std::string>());
    }
  }
  record.exit_status = static_cast<int>(Number(run, "exit_status", path));
  // A document without "complete" predates partial reports: it was written complete.
  if (const auto it = run.find("complete"); it != run.end() && it->is_boolean() && !it->get<bool>()) {
    const auto why = run.find("incomplete");
    record.incomplete = why != run.end() && why->is_string() && !why->get<std::string>().empty()
                            ? why->get<std::string>()
                            : "the run did not finish";
  }
  if (const auto it = run.find("baseline"); it != run.end() && it->is_object()) {
    record.baseline_origin = Text(*it, "origin", "run.baseline");
    for (const auto& id : Member(*it, "run_ids", "run.baseline")) {
      if (id.is_string()) record.baseline_run_ids.push_back(id.get<std::string>());
    }
  }
  if (const auto it = run.find("coverage"); it != run.end() && it->is_object()) {
    for (const auto& node : Member(*it, "not_covered", "run.coverage")) {
      if (node.is_string()) record.not_covered.push_back(node.get<std::string>());
    }
  }
  if (const auto it = run.find("node_actions"); it != run.end() && it->is_array()) {
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& action = (*it)[i];
      const std::string at = "run.node_actions[" + std::to_string(i) + "]";
      record.node_actions.push_back({Text(action, "node", at), Text(action, "action", at), Text(action, "why", at),
                                     Text(action, "slurm_reason", at), Text(action, "outcome", at)});
    }
  }
  return record;
}

}  // namespace

std::optional<Verdict> VerdictNamed(const std::string& name) {
  for (Verdict verdict : {Verdict::kPass, Verdict::kFail, Verdict::kError, Verdict::kSkip, Verdict::kRegression}) {
    if (name == VerdictName(verdict)) return verdict;
  }
  return std::nullopt;
}

Result<Run> ParseResultsDocument(const std::string& text, const std::string& origin) {
  // Each element of "results" is read into a CheckResult as soon as it is parsed and then dropped
  // from the tree: a 10,000-node document is 220 MB, and as one json value it would take 1 GB.
  Run read;
  std::string entry_error;
  bool in_results = false;
  bool in_results_array = false;
  std::size_t element = 0;
  const json::parser_callback_t read_each_result = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key) {
      in_results = parsed == "results";
      in_results_array = false;
    } else if (depth == 1 && event == json::parse_event_t::array_start) {
      in_results_array = in_results;
    } else if (depth == 2 && in_results_array &&
               (event == json::parse_event_t::object_end || event == json::parse_event_t::array_end ||
                event == json::parse_event_t::value)) {
      const std::string path = "results[" + std::to_string(element++) + "]";  // an element ends here
      if (entry_error.empty()) {
        try {
          read.cases.push_back(ReadResult(parsed, path));
        } catch (const DocumentError& e) {
          entry_error = e.what();
        } catch (const json::exception& e) {
          entry_error = path + ": " + e.what();
        }
      }
      return false;
    }
    return true;
  };
  const json document = json::parse(text, read_each_result, /*allow_exceptions=*/false);
  if (document.is_discarded()) return Error{origin + ": not JSON (a results document comes from run --json FILE)"};
  if (!document.is_object() || !document.contains("schema_version")) {
    return Error{origin + ": not a gpuconform results document (no schema_version; run --json FILE writes one)"};
  }
  const json& version = document["schema_version"];
  if (version != kResultsSchemaVersion) {
    return Error{origin + ": results schema_version " + version.dump() + "; this gpuconform reads version " +
                 std::to_string(kResultsSchemaVersion)};
  }
  try {
    if (!entry_error.empty()) throw DocumentError(entry_error);
    read.record = ReadRun(Member(document, "run", ""));
    if (!Member(document, "results", "").is_array()) throw DocumentError(".results: expected an array");
    return read;
  } catch (const DocumentError& e) {
    std::string where = e.what();
    if (where.starts_with(".")) where.erase(0, 1);
    return Error{origin + ": " + where};
  } catch (const json::exception& e) {
    return Error{origin + ": " + e.what()};
  }
}

}  // namespace gpuconform
