#include "fleet/slurm_node_actions.h"

#include "harness/core/process_runner.h"
#include "harness/util/text_util.h"
#include "probes/slurm/slurm_parse.h"

namespace gpuconform {

namespace {

std::string FirstLineOf(const CommandResult& result) {
  std::string text(Trim(result.stderr_text.empty() ? result.stdout_text : result.stderr_text));
  text = text.substr(0, text.find('\n'));
  if (!text.empty()) return text;
  if (result.outcome == CommandOutcome::kNotFound) return "scontrol is not installed on this node";
  if (result.outcome == CommandOutcome::kTimedOut)
    return "scontrol did not answer within " + std::to_string(kScontrolTimeout.count()) + " s";
  return "exit " + std::to_string(result.exit_code);
}

}  // namespace

Result<std::vector<SlurmNodeState>> SlurmNodeStatesFrom(const std::string& scontrol_text, const std::string& origin) {
  auto parsed = slurm::ParseScontrolShowNode(scontrol_text, origin);
  if (!parsed) return Error{parsed.error()};
  std::vector<SlurmNodeState> states;
  states.reserve(parsed->size());
  for (const auto& node : *parsed) states.push_back({node.name, node.state(), node.reason()});
  return states;
}

Result<std::vector<SlurmNodeState>> SlurmNodeStatesFrom(const RawOutput& scontrol) {
  if (!scontrol.ok()) return Error{scontrol.detail};
  return SlurmNodeStatesFrom(scontrol.text, scontrol.origin);
}

Result<std::vector<SlurmNodeState>> ReadSlurmNodeStates() {
  const std::vector<std::string> argv = {"scontrol", "show", "node"};
  const CommandResult result = RunCommand(argv, kScontrolTimeout);
  if (!result.Succeeded()) return Error{CommandText(argv) + ": " + FirstLineOf(result)};
  return SlurmNodeStatesFrom(result.stdout_text, CommandText(argv));
}

std::vector<AppliedAction> ApplyDrainPlan(const DrainPlan& plan, bool apply_drains, bool apply_resumes) {
  std::vector<AppliedAction> applied;
  for (const auto& decision : plan.decisions) {
    AppliedAction record{decision.node, DrainActionName(decision.action), decision.why, decision.slurm_reason, "none"};
    std::vector<std::string> argv;
    bool apply = false;
    if (decision.action == DrainAction::kDrain) {
      argv = {"scontrol", "update", "NodeName=" + decision.node, "State=DRAIN", "Reason=" + decision.slurm_reason};
      apply = apply_drains;
    } else if (decision.action == DrainAction::kResume) {
      argv = {"scontrol", "update", "NodeName=" + decision.node, "State=RESUME"};
      apply = apply_resumes;
    }
    if (!argv.empty()) {
      if (!apply) {
        record.outcome = "planned";
      } else {
        const CommandResult result = RunCommand(argv, kScontrolTimeout);
        record.outcome = result.Succeeded() ? "done" : "failed: " + CommandText(argv) + ": " + FirstLineOf(result);
      }
    }
    applied.push_back(std::move(record));
  }
  return applied;
}

}  // namespace gpuconform
