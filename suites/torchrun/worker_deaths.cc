#include "suites/torchrun/worker_deaths.h"

#include <fmt/format.h>

#include "suites/torchrun/torchrun_checks.h"

namespace gpuconform::torchrun {

namespace {

using resource_limits::ClassifiedDeath;
using resource_limits::ClassifyDeath;
using resource_limits::WorkerDeath;

constexpr int kEveryStage = 0;  // a death of the whole worker (the launcher's output) comes first

// The worker's stages in the order it runs them (probes/torchrun/torchrun_worker.py).
int StageOrder(const std::string& stage) {
  static const std::map<std::string, int> kOrder = {{"init", 0},     {"allreduce", 1}, {"transport", 2},
                                                    {"shard", 3},    {"dataload", 4},  {"checkpoint", 5},
                                                    {"barrier", 6},  {"destroy", 6}};
  const auto found = kOrder.find(stage);
  return found == kOrder.end() ? kEveryStage : found->second;
}

// The stage whose records a check reads; nullopt for the checks no worker's death can change
// (the ports, the ranks and devices each worker states before it does anything).
std::optional<int> CheckStage(const std::string& check) {
  if (check == kCollectiveCorrect) return 1;
  if (check == kSamplerShardsDisjoint) return 3;
  if (check == kDataLoaderThroughput) return 4;
  if (check == kCheckpointRankZero) return 5;
  if (check == kLauncherStarted) return 7;  // the launcher ends when every stage has
  return std::nullopt;
}

struct Death {
  ClassifiedDeath death;
  int stage = kEveryStage;
};

// The node's earliest death a resource explains, from its workers' errors, then its launchers.
std::optional<Death> NodeDeath(const NodeTorchrunReport& report) {
  std::optional<Death> earliest;
  const auto consider = [&](const std::string& who, const std::string& stage, WorkerDeath death) {
    const auto exhaustion = ClassifyDeath(death, report.limits);
    if (!exhaustion || (earliest && earliest->stage <= StageOrder(stage))) return;
    const std::string own = stage == "dataload" ? kDataLoaderThroughput : kLauncherStarted;
    earliest = Death{{report.node, who, *exhaustion, own}, StageOrder(stage)};
  };
  for (const auto& worker : report.workers) {
    const std::string who = fmt::format("rank {} on {}", worker.rank, report.node);
    if (worker.init_ok && !*worker.init_ok) consider(who, "init", {std::nullopt, std::nullopt, false, {worker.init_error}});
    for (const auto& [stage, message] : worker.errors) {
      consider(who, stage, {std::nullopt, std::nullopt, false, {message}});
    }
  }
  for (const auto& launcher : report.launchers) {
    if (launcher.state != "failed" && launcher.state != "crashed" && launcher.state != "timed-out") continue;
    consider(fmt::format("torchrun (task {}) on {}", launcher.task_rank, report.node), "",
             {launcher.exit_code, std::nullopt, launcher.state == "timed-out", launcher.output});
  }
  return earliest;
}

}  // namespace

WorkerDeaths FindWorkerDeaths(const NodeFacts<NodeTorchrunReport>& reports) {
  WorkerDeaths found;
  for (const auto& [node, report] : reports.read) {
    if (auto death = NodeDeath(report)) {
      found.stage_of[node] = death->stage;
      found.deaths.push_back(std::move(death->death));
    }
  }
  return found;
}

CheckResult WithWorkerDeaths(CheckResult judged, const std::string& check, const std::string& node,
                             const WorkerDeaths& deaths) {
  // Named as its case, because the rule tells a death's own case from its dependents by name.
  std::vector<CheckResult> one = {Stamped(std::move(judged), kSuite, check, node)};
  resource_limits::ApplyDeaths(one, deaths.deaths, kSuite,
                               [&deaths](const CheckResult& result, const ClassifiedDeath& death) {
                                 const auto stage = CheckStage(result.check);
                                 return stage && *stage >= deaths.stage_of.at(death.node);
                               });
  return std::move(one.front());
}

}  // namespace gpuconform::torchrun
