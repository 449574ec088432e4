// The drain step of `run` and `merge`: the plan (fleet/drain_plan.h) decided against the
// controller's node states, printed, written as FILE with exclude.hostlist beside it, applied
// when asked and allowed (fleet/slurm_node_actions.h), and every decision recorded in the run
// record for the results document.
// Contract: states come from the controller now or from text captured with the results (a
// snapshot's scontrol-show-node); only states read now let a plan be applied. Without states the
// plan still lists the failing nodes, says why the guards cannot hold, and nothing is applied.
// Returns false when a file could not be written or an scontrol update failed (exit 2).
#pragma once

#include <string>
#include <vector>

#include "harness/core/probe.h"
#include "harness/core/verdict.h"
#include "results/run.h"

namespace gpuconform {

struct DrainRequest {
  std::string plan_file;               // --drain-plan FILE; empty: the plan is only printed
  bool apply_drain = false;            // --apply-drain
  bool resume_passed = false;          // --resume-passed
  std::string max_drain;               // --max-drain N|P%, as given; empty: no cap
  bool states_from_controller = true;  // false: judge against `captured_states`
  RawOutput captured_states;           // scontrol show node, as captured with the results
  std::string why_dry_run;             // not empty: nothing is applied, and this says why
};

bool WantsDrainStep(const DrainRequest& request);

bool DecideDrains(const DrainRequest& request, const std::vector<std::string>& judged_nodes,
                  const std::vector<CheckResult>& results, RunRecord& record);

}  // namespace gpuconform
