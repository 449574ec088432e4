// The results document of one run (`run --json FILE`): what CI gates and fleet tooling read.
// Contract: versioned by kResultsSchemaVersion and described by schemas/results.schema.json
// (the tests validate every fixture's document against it with a real validator); a change
// that removes or renames a field raises the version. RenderResultsJson is pure;
// WriteResultsJson publishes the file atomically.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/result.h"
#include "harness/verdict.h"

namespace gpuconform {

inline constexpr int kResultsSchemaVersion = 1;

// What the document says about the run as a whole.
struct RunRecord {
  std::string run_id;       // random, 32 hex digits: joins a run's rows across files and databases
  std::string started_utc;  // "2026-12-04T14:00:00Z"
  std::string ended_utc;
  std::string gpuconform_version;
  std::string profile;
  std::string hostname;  // where rank 0 wrote the document
  std::string mode;      // "live" or "snapshot DIR"
  std::string filter;
  std::optional<std::string> slurm_job_id;
  std::vector<std::string> nodes;
  std::map<std::string, std::string> snapshot_manifest;   // a replayed snapshot's manifest.yaml
  std::vector<std::pair<std::string, std::string>> tags;  // --tag KEY=VALUE, in the order given
  int exit_status = 0;
  // The run compared with (--baseline): where it came from and the runs it summarises.
  std::optional<std::string> baseline_origin;
  std::vector<std::string> baseline_run_ids;
  // Nodes the controller lists that ran no task: not judged (harness/node_coverage.h).
  std::vector<std::string> not_covered;
  // What the drain plan decided and did (--drain-plan, --apply-drain, health-check), per node.
  struct NodeAction {
    std::string node;
    std::string action;        // drain, keep-reason, already-drained, held-back, not-in-slurm, resume
    std::string why;
    std::string slurm_reason;  // the Reason= of a drain
    std::string outcome;       // planned, done, failed: ..., none
  };
  std::vector<NodeAction> node_actions;
};

nlohmann::json RenderResultsJson(const std::vector<CheckResult>& results, const RunRecord& run);
// The document as the file holds it: RenderResultsJson dumped with a two-space indent, every
// string valid UTF-8 (invalid bytes become U+FFFD), and a final newline. Written one result at
// a time, so the whole document never exists in memory as a json value.
void WriteResultsJsonTo(const std::vector<CheckResult>& results, const RunRecord& run,
                        const std::function<void(std::string_view)>& sink);
std::string RenderResultsJsonText(const std::vector<CheckResult>& results, const RunRecord& run);
Result<bool> WriteResultsJson(const std::string& path, const std::vector<CheckResult>& results, const RunRecord& run);

// 32 random hex digits.
std::string NewRunId();

}  // namespace gpuconform
