// The drain plan: which nodes a run takes out of service, which it resumes, and why.
// Contract: pure. The run's results and the controller's node states go in; a plan comes out
// that says, for every node it considered, what it will do and why. The guards operators ask
// for live here, in one place:
//   - only failures of fault class hardware or configuration drain a node; a tooling error
//     (gpuconform could not get the fact), a skip or a regression never does, and neither does
//     a finding that only repeats the node's Slurm state (node-unusable: it is drained already);
//   - a node that is drained, down or failed for a reason that is not gpuconform's keeps it;
//   - --max-drain caps the new drains; the ones held back are listed with the cap;
//   - --resume-passed resumes only nodes that gpuconform drained and that now conform.
// Applying the plan (scontrol) is fleet/slurm_node_actions.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "harness/util/result.h"

namespace gpuconform {

// Every drain reason gpuconform writes starts with this; only such reasons are its own.
inline constexpr char kDrainReasonPrefix[] = "gpuconform:";
// Slurm keeps the whole reason, but sinfo and dashboards show about this much.
inline constexpr std::size_t kMaxDrainReasonChars = 160;

// --max-drain N or P%: how many nodes one run may drain.
struct DrainCap {
  std::optional<int> count;              // N
  std::optional<double> percent;         // P (of the nodes the run judged)
  std::string text;                      // as given, for messages
  int LimitFor(int judged_nodes) const;  // no cap: judged_nodes
};
Result<DrainCap> ParseDrainCap(const std::string& text);

// One node as the controller sees it (scontrol show node).
struct SlurmNodeState {
  std::string name;
  std::string state;          // "IDLE+DRAIN", "MIXED", "DOWN*"
  std::string reason;         // "maint [root@2026-12-04T10:00:00]", empty when none
  bool Drained() const;       // DRAIN, DOWN, FAIL or NOT_RESPONDING: out of service already
  bool OursToResume() const;  // drained with a reason gpuconform wrote
};

// Why a node should be drained: the first hardware or configuration failure that names it.
struct DrainCause {
  std::string node;
  std::string code;         // the finding's catalogue code
  std::string fault_class;  // "hardware" or "configuration"
  std::string check;        // "SlurmGres.GresMatchesHardware/node2"
  std::string message;
};

enum class DrainAction {
  kDrain,        // scontrol update State=DRAIN with our reason
  kKeepReason,   // out of service for someone else's reason: left alone
  kAlreadyOurs,  // drained by gpuconform already
  kHeldBack,     // over --max-drain
  kNotInSlurm,   // the controller does not list the node: nothing to drain
  kResume,       // ours, and it conforms now: scontrol update State=RESUME
};
const char* DrainActionName(DrainAction action);  // "drain", "keep-reason", ...

struct DrainDecision {
  std::string node;
  DrainAction action = DrainAction::kDrain;
  std::string slurm_reason;  // for kDrain: the Reason= gpuconform sets
  std::string why;           // one line for the terminal and the plan
  std::optional<DrainCause> cause;
};

struct DrainPlan {
  std::string run_id;
  std::vector<DrainDecision> decisions;  // drains first, then the rest; each node once
  std::string cap_note;                  // what --max-drain held back, empty when nothing
  std::vector<std::string> NodesWith(DrainAction action) const;
};

struct DrainPlanInputs {
  std::string run_id;
  std::vector<std::string> judged_nodes;             // the nodes that ran a task (or are in the snapshot)
  std::optional<std::vector<SlurmNodeState>> slurm;  // empty: the controller could not be asked
  std::optional<DrainCap> cap;
  bool resume_passed = false;
};

// The findings that would drain a node, one per node (the first in report order).
std::vector<DrainCause> DrainCauses(const std::vector<CheckResult>& results, const std::vector<std::string>& nodes);
// Nodes with no fail, error or regression in any case about them.
std::vector<std::string> ConformingNodes(const std::vector<CheckResult>& results,
                                         const std::vector<std::string>& nodes);

// `gpuconform: <code>: <message> run=<first 8 of run id>`, on one line, quotes removed,
// shortened to kMaxDrainReasonChars.
std::string DrainReasonFor(const DrainCause& cause, const std::string& run_id);

DrainPlan PlanDrain(const std::vector<CheckResult>& results, const DrainPlanInputs& inputs);

// The nodes a scheduler should keep jobs off: every node the plan found a fault on (drained now,
// held back, or out of service already), as one Slurm hostlist; empty when none.
std::string ExcludeHostlist(const DrainPlan& plan);

// The plan as text for the terminal (and the head of the plan file).
std::string RenderDrainPlanText(const DrainPlan& plan, bool applying);

}  // namespace gpuconform
