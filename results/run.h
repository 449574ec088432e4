// One run as every report reads it: its record (who, where, when, what was judged, what it did
// to the nodes, the exit status) and its cases. The writers (reports/, history/, the terminal)
// are sinks that read a Run (results/report_sink.h); the results document's reader gives one
// back (reports/results_reader.h), so `merge`, `report`, `diff` and `baseline` read the same
// model that `run` and `health-check` write. Totals and the exit status's meaning come from
// the cases (results/run_totals.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/verdict.h"

namespace gpuconform {

// What a run was: who ran it, where and when, what it judged, what it did to nodes, and its
// exit status (the results document's "run" object).
struct RunRecord {
  std::string run_id;       // random, 32 hex digits: joins a run's rows across files and databases
  std::string started_utc;  // "2026-12-04T14:00:00Z"
  std::string ended_utc;
  // When the facts judged were read: a live run's start, a replayed snapshot's captured_at
  // (empty when the snapshot does not say). Counter rates between runs are measured from it.
  std::string facts_read_utc;
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
  // Nodes the controller lists that ran no task: not judged (harness/core/node_coverage.h).
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
  // How a run that ended before it judged everything ended: "the run was terminated by SIGTERM
  // at ..." (harness/core/termination.h), or that it was still running when this report was written
  // (a provisional report, replaced when the run ends). Empty for a complete run: every reader
  // tells a partial report from a complete one by it (JSON "complete", JUnit property "complete").
  std::string incomplete;

  bool complete() const { return incomplete.empty(); }
};

// 32 random hex digits.
std::string NewRunId();

// The record of a run that started at `started_utc` on `hostname`: a new run id and this
// build's version; the rest is filled in as the run goes.
RunRecord StartRecord(std::string started_utc, std::string profile, std::string hostname, std::string mode, std::string filter,
                      std::optional<std::string> slurm_job_id, std::vector<std::string> nodes);

// A run: its record and its cases, in suite order (a check's per-node cases together).
struct Run {
  RunRecord record;
  std::vector<CheckResult> cases;
  // What the verb states about how it ran, in order ("nodes", "world", "filter", "baseline",
  // "elapsed_s"), beyond the record: each report shows them its own way (JUnit as run-wide
  // <properties> after profile, version and mode).
  std::vector<std::pair<std::string, std::string>> stated_properties = {};
};

}  // namespace gpuconform
