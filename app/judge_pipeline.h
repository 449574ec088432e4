// The pipeline every verb that judges a cluster takes, in order:
//   evaluate -> select -> compare -> show -> act -> sinks
// `run` and `health-check` give their own steps (run: the --filter and node coverage, the
// baseline, the drain plan; health-check: this node's quick checks, no baseline, its own
// drain), and share the order, the exit status and the reports. "show" is the terminal
// report, a sink written before the verb acts, so the reader sees what was found before what
// was done about it.
// Contract: the exit status is ExitStatusFor the selected and compared cases, or 2 when the
// verb already knows the run must exit 2 (an unreadable baseline); 2 as well when an action
// failed or a sink could not write. The record carries the status as it stood before the
// sinks wrote.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "results/report_sink.h"
#include "results/run.h"

namespace gpuconform {

// Each step works on the run: its cases, and what it records about them.
struct JudgementSteps {
  // Keeps the cases the reports show, in order (and records the nodes it leaves uncovered).
  std::function<void(Run&)> select;
  // Compares the cases with a baseline; empty when the verb has none.
  std::function<void(Run&)> compare = {};
  // What the verb does about its nodes once judged (drain, resume), recorded in the run's
  // node_actions; false when an action failed. Empty when it does nothing.
  std::function<bool(Run&)> act = {};
};

// `run` holds the record of the run so far (id, start, profile, mode, nodes, ...) and its JUnit
// properties; `evaluated` the suites' cases. `problem_status` is 2 when the verb already knows
// the run must exit 2, else 0. Returns the exit status.
int JudgeAndReport(std::vector<CheckResult> evaluated, const JudgementSteps& steps, Run run,
                   const ReportSink& terminal, const ReportSinks& sinks, int problem_status = 0);

}  // namespace gpuconform
