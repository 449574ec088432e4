// The command line (architecture §2): run, capture, launch, list, profiles, reasons, explain,
// version, and baseline, diff and report, which read results documents.
// Contract: ParseCommandLine never exits the process; --help text and usage errors come
// back as text with the exit status to use (0 for --help, 2 for a bad invocation).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/launch_verb.h"
#include "harness/core/run_options.h"

namespace gpuconform {

enum class Verb {
  kRun,
  kCapture,
  kLaunch,
  kList,
  kProfiles,
  kReasons,
  kExplain,
  kVersion,
  kBaseline,
  kDiff,
  kReport,
  kHistory,
  kHealthCheck,
  kMerge
};

struct CommandLine {
  Verb verb = Verb::kRun;
  std::string profile;     // NAME or FILE; empty = default
  std::string snapshot;    // run offline from this snapshot
  std::string deadline;  // run: --deadline DURATION ("90s", "45m", "2h", "600")
  std::string keep_snapshot;  // run: also write the raw outputs it judged as a snapshot here
  std::string junit;       // JUnit file
  std::string junit_dir;   // one Surefire-style file per suite
  std::string json_out;    // --json: the results document (reports/json_report.h)
  std::vector<std::string> tags;  // --tag KEY=VALUE, recorded in the results document
  std::string summary_md;         // a short Markdown summary for CI job pages
  std::string baseline;           // run: compare the metrics with this results or baseline document
  std::vector<std::string> baseline_from;  // baseline: the results documents to summarise
  std::vector<std::string> merge_inputs;   // merge: the results documents to combine
  std::string diff_old;                    // diff: the earlier results document
  std::string diff_new;                    // diff: the later one
  std::string html;                        // run, report: the HTML report to write
  std::string prometheus_dir;              // run: where to write gpuconform.prom
  std::string report_input;                // report: a results document or a history database
  std::string history;                     // run: append the run to this SQLite database; history: read it
  std::string history_node;                // history --node
  std::string history_metric;              // history --metric
  int history_last = 10;                   // history --last
  std::string filter = "*";
  std::string out;         // capture: snapshot directory to write
  std::string color = "auto";  // auto | always | never
  bool quiet = false;
  std::string checkpoint_dir;       // Checkpoint suite target (overrides the profile)
  std::string checkpoint_temp_dir;  // where the jobs write temporary files
  bool json = false;                // reasons: print JSON instead of text
  std::string reason_code;          // explain: the code to explain

  // run: what to do about the nodes that fail (fleet/drain_plan.h), and coverage.
  std::string drain_plan;           // --drain-plan FILE: the plan (JSON); exclude.hostlist beside it
  bool apply_drain = false;         // --apply-drain: scontrol update the plan's nodes
  std::string max_drain;            // --max-drain N|P%
  bool resume_passed = false;       // --resume-passed
  bool require_all_nodes = false;   // --require-all-nodes: nodes without a task are errors
  // health-check: Slurm's HealthCheckProgram mode.
  std::string budget = "45s";       // --budget: the whole run's deadline
  bool no_drain = false;            // --no-drain: report only

  // launch: the step it starts with srun, and the `run` options after `--`.
  int launch_nodes = 0;              // -N; 0: every node of the allocation
  std::string launch_nodelist;       // -w
  std::string launch_partition;      // -p
  int launch_immediate_s = 30;       // srun --immediate: give up rather than wait for nodes
  std::string launch_gpus_per_node;  // --gpus-per-node N|none; empty: the profile's slurm.gpus_per_node
  std::vector<std::string> run_args;
  // run, as launch starts it (hidden): the nodes Slurm refused, NODE=srun's error line.
  bool launched = false;
  std::vector<std::string> launch_refused;
  bool launch_no_task = false;
};

struct ParsedCommandLine {
  std::optional<CommandLine> command;  // set when the program should go on
  std::string message;                 // help or error text to print
  int exit_status = 0;                 // when command is empty
};

ParsedCommandLine ParseCommandLine(const std::vector<std::string>& args);

// The request of `gpuconform launch` (app/launch_verb.h).
LaunchRequest LaunchRequestOf(const CommandLine& command);
// The settings RunOptions takes from this command line (harness/core/run_options.h).
CommandLineSettings SettingsOf(const CommandLine& command);

}  // namespace gpuconform
