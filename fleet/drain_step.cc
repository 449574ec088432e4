#include "fleet/drain_step.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "fleet/drain_plan.h"
#include "fleet/slurm_node_actions.h"
#include "harness/util/atomic_file.h"

namespace gpuconform {

namespace {

Result<std::vector<SlurmNodeState>> NodeStates(const DrainRequest& request) {
  return request.states_from_controller ? ReadSlurmNodeStates() : SlurmNodeStatesFrom(request.captured_states);
}

bool Publish(const std::string& path, const std::string& text, const std::string& what) {
  const Result<bool> written = WriteFileAtomically(path, text);
  if (!written) {
    std::cerr << "gpuconform: " << written.error() << "\n";
    return false;
  }
  std::cout << what << path << "\n";
  return true;
}

}  // namespace

bool WantsDrainStep(const DrainRequest& request) {
  return !request.plan_file.empty() || request.apply_drain || request.resume_passed;
}

bool DecideDrains(const DrainRequest& request, const std::vector<std::string>& judged_nodes,
                  const std::vector<CheckResult>& results, RunRecord& record) {
  const bool acting = request.apply_drain || request.resume_passed;
  DrainPlanInputs inputs{record.run_id, judged_nodes, std::nullopt, std::nullopt, request.resume_passed};
  if (!request.max_drain.empty()) {
    auto cap = ParseDrainCap(request.max_drain);
    if (!cap) {
      std::cerr << "gpuconform: " << cap.error() << "\n";
      return false;
    }
    inputs.cap = *cap;
  }
  auto states = NodeStates(request);
  if (states) {
    inputs.slurm = std::move(*states);
  } else {
    std::cerr << "gpuconform: the drain plan has no node states (" << states.error()
              << "); it lists the failing nodes without the guards that need them\n";
  }
  if (acting && !request.why_dry_run.empty()) std::cerr << "gpuconform: " << request.why_dry_run << "\n";
  if (acting && !inputs.slurm) {
    std::cerr << "gpuconform: nothing is drained or resumed: without the controller's states the guards "
                 "(another reason kept, only gpuconform's drains resumed) cannot hold\n";
  }
  const bool may_apply = request.states_from_controller && request.why_dry_run.empty() && inputs.slurm.has_value();
  const bool apply_drains = request.apply_drain && may_apply;
  const bool apply_resumes = request.resume_passed && may_apply;
  const DrainPlan plan = PlanDrain(results, inputs);
  bool ok = true;
  std::cout << RenderDrainPlanText(plan, apply_drains);
  for (auto& action : ApplyDrainPlan(plan, apply_drains, apply_resumes)) {
    if (action.outcome != "none" && action.outcome != "planned") {
      std::cout << "  " << action.node << ": " << action.outcome << "\n";
    }
    if (action.outcome.rfind("failed", 0) == 0) ok = false;
    record.node_actions.push_back(std::move(action));
  }
  if (request.plan_file.empty()) return ok;
  nlohmann::json document = {{"run_id", plan.run_id},
                             {"drains_applied", apply_drains},
                             {"resumes_applied", apply_resumes},
                             {"cap_note", plan.cap_note},
                             {"exclude_hostlist", ExcludeHostlist(plan)},
                             {"nodes", nlohmann::json::array()}};
  for (const auto& action : record.node_actions) {
    document["nodes"].push_back({{"node", action.node},
                                 {"action", action.action},
                                 {"why", action.why},
                                 {"slurm_reason", action.slurm_reason},
                                 {"outcome", action.outcome}});
  }
  const std::string exclude_path =
      (std::filesystem::path(request.plan_file).parent_path() / "exclude.hostlist").string();
  ok = Publish(request.plan_file, document.dump(2) + "\n", "Drain plan: ") && ok;
  ok = Publish(exclude_path, ExcludeHostlist(plan) + "\n", "Nodes to exclude (srun --exclude=$(cat FILE)): ") && ok;
  return ok;
}

}  // namespace gpuconform
