// What gpuconform does to Slurm: reads the controller's node states and applies a drain plan
// with `scontrol update`. The only place gpuconform changes the cluster it judges.
// Contract: every command goes through RunCommand with a deadline; a command that fails is
// recorded with Slurm's own words, never retried silently and never fatal to the report.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "fleet/drain_plan.h"
#include "harness/core/probe.h"
#include "harness/util/result.h"
#include "results/run.h"

namespace gpuconform {

inline constexpr std::chrono::seconds kScontrolTimeout{20};

// `scontrol show node` (every node the controller knows), as states and reasons.
Result<std::vector<SlurmNodeState>> ReadSlurmNodeStates();
// The same from text already captured (the run's scontrol-show-node probe, a snapshot).
Result<std::vector<SlurmNodeState>> SlurmNodeStatesFrom(const std::string& scontrol_text, const std::string& origin);
// The same from a captured probe output; an output the probe did not get is its error.
Result<std::vector<SlurmNodeState>> SlurmNodeStatesFrom(const RawOutput& scontrol);

// What one planned action came to, as the results document records it (run.node_actions):
// action is DrainActionName; outcome "planned" (dry run), "done", "failed: <scontrol's words>",
// or "none" (nothing to do).
using AppliedAction = RunRecord::NodeAction;

// Runs scontrol for the plan's drains when `apply_drains` and its resumes when `apply_resumes`;
// an action not applied is recorded as planned. Every decision comes back, in plan order.
std::vector<AppliedAction> ApplyDrainPlan(const DrainPlan& plan, bool apply_drains, bool apply_resumes);

}  // namespace gpuconform
