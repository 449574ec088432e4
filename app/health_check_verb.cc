#include "app/health_check_verb.h"

#include "app/health_check_profile.h"

#include <chrono>
#include <iostream>
#include <map>

#include "app/judge_pipeline.h"
#include "app/terminal_printer.h"
#include "fleet/drain_plan.h"
#include "fleet/slurm_node_actions.h"
#include "harness/core/live_source.h"
#include "harness/core/profile.h"
#include "harness/core/suite_registry.h"
#include "harness/util/text_util.h"
#include "harness/util/timestamp.h"
#include "harness/world/gather.h"
#include "harness/world/world.h"
#include "reports/json_report.h"
#include "reports/report_sinks.h"

namespace gpuconform {

namespace {

using Clock = std::chrono::steady_clock;

constexpr char kScontrolProbeId[] = "scontrol-show-node";

struct QuickSelection {
  std::vector<const SuiteDefinition*> suites;
  std::set<std::string> checks;  // "Suite.Check"
};

Result<QuickSelection> SelectQuickChecks(const Profile& profile) {
  const auto* section = profile.Get<HealthCheckExpectation>();
  if (section == nullptr || section->quick_checks.empty()) {
    return Error{profile.file +
                 ": the profile has no health_check section listing quick_checks; add one (see "
                 "topologies/local.yaml) to choose the checks a health check runs"};
  }
  QuickSelection selection;
  for (const auto& name : section->quick_checks) {
    const auto dot = name.find('.');
    const SuiteDefinition* found_suite = nullptr;
    const CheckDefinition* found_check = nullptr;
    for (const auto* suite : SuiteRegistry::Instance().Suites()) {
      if (suite->name != name.substr(0, dot)) continue;
      for (const auto& check : suite->checks) {
        if (check.name == name.substr(dot + 1)) {
          found_suite = suite;
          found_check = &check;
        }
      }
    }
    if (found_check == nullptr) {
      return Error{profile.file + ": health_check.quick_checks names " + name +
                   ", which is not a check (see gpuconform list)"};
    }
    if (!found_check->per_node) {
      return Error{profile.file + ": health_check.quick_checks names " + name +
                   ", a cluster-wide check; a health check judges one node, so only per-node checks (/<node>) fit"};
    }
    selection.checks.insert(name);
    if (std::find(selection.suites.begin(), selection.suites.end(), found_suite) == selection.suites.end()) {
      selection.suites.push_back(found_suite);
    }
  }
  return selection;
}

// Runs each probe with the time left; names the probe that ran out of it.
struct ProbeRun {
  ClusterRaw raw;
  std::string budget_problem;  // empty when every probe ended within the budget
};

ProbeRun RunProbes(const std::vector<ProbeSpec>& probes, const std::string& host, const Profile& profile,
                   const RunOptions& options, Clock::time_point deadline, int budget_s) {
  ProbeRun run;
  run.raw.nodes = {host};
  LiveSource live(host, &profile, options);
  const World world = World::Single();
  const CollectiveContext collective{world, &profile, host, true, {host}, options};
  for (ProbeSpec spec : probes) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    RawOutput out;
    if (left < std::chrono::milliseconds(200)) {
      out.status = ProbeStatus::kTimedOut;
      out.origin = host + ": " + spec.id;
      out.detail = host + ": the health-check budget of " + std::to_string(budget_s) + " s ran out before probe " +
                   spec.id + " could start";
      if (run.budget_problem.empty()) run.budget_problem = out.detail;
    } else {
      spec.timeout_ms = std::min<long long>(spec.timeout_ms, left.count());
      out = spec.method == ProbeMethod::kCollective ? spec.collective(collective) : live.Fetch(spec, host);
      if (out.status == ProbeStatus::kTimedOut && Clock::now() >= deadline - std::chrono::milliseconds(200) &&
          run.budget_problem.empty()) {
        run.budget_problem = host + ": the health-check budget of " + std::to_string(budget_s) +
                             " s ran out while probe " + spec.id + " was running (" + out.detail + ")";
      }
    }
    if (spec.scope == ProbeScope::kCluster) {
      run.raw.cluster[spec.id] = std::move(out);
    } else {
      run.raw.node[host][spec.id] = std::move(out);
    }
  }
  return run;
}

// One result per quick check, about this node. A suite that could not judge any node (the
// controller did not answer) reports a cluster-wide error: it is this node's error here. A
// check with no result at all says so, rather than vanishing from the report.
std::vector<CheckResult> ResultsForNode(const std::vector<CheckResult>& evaluated, const QuickSelection& selection,
                                        const std::string& host) {
  std::vector<CheckResult> results;
  for (const auto& name : selection.checks) {
    const CheckResult* mine = nullptr;
    const CheckResult* cluster_wide = nullptr;
    for (const auto& result : evaluated) {
      if (result.suite + "." + result.check != name) continue;
      if (result.node == host) mine = &result;
      if (result.node.empty()) cluster_wide = &result;
    }
    if (mine != nullptr) {
      results.push_back(*mine);
    } else if (cluster_wide != nullptr) {
      results.push_back(*cluster_wide);
      results.back().node = host;
    } else {
      const auto dot = name.find('.');
      results.push_back(Errored(name.substr(0, dot), name.substr(dot + 1), host, "unavailable",
                                host + ": " + name + " gave no result for this node; is " + host +
                                    " the node's name in slurm.conf (SLURMD_NODENAME, else the host name)?"));
    }
  }
  return results;
}

void Say(const std::string& line) { std::cout << "gpuconform health-check: " << line << "\n"; }

}  // namespace

int BudgetSeconds(const std::string& text) {
  std::string digits = text;
  if (!digits.empty() && digits.back() == 's') digits.pop_back();
  if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::stoi(digits);
}

std::vector<ProbeSpec> QuickProbes(const std::vector<ProbeSpec>& probes, const std::string& host) {
  std::vector<ProbeSpec> quick;
  for (ProbeSpec spec : probes) {
    if (spec.active) continue;  // never in a health check
    if (spec.scope == ProbeScope::kCluster) {
      if (spec.id != kScontrolProbeId) continue;
      spec.argv.push_back(host);  // this node's record only: the controller is asked by every node
    }
    quick.push_back(std::move(spec));
  }
  return quick;
}

int HealthCheckVerb(const CommandLine& command, const RunOptions& options) {
  const auto start = Clock::now();
  const int budget_s = BudgetSeconds(command.budget);
  if (budget_s <= 0) {
    std::cerr << "gpuconform: --budget '" << command.budget << "': give whole seconds, e.g. 45s\n";
    return 2;
  }
  const auto deadline = start + std::chrono::seconds(budget_s);
  auto profile = LoadProfile(options.profile);
  if (!profile) {
    std::cerr << "gpuconform: " << profile.error() << "\n";
    return 2;
  }
  auto selection = SelectQuickChecks(*profile);
  if (!selection) {
    std::cerr << "gpuconform: " << selection.error() << "\n";
    return 2;
  }
  const std::string host = options.slurmd_nodename.empty() ? LocalHostname() : options.slurmd_nodename;
  const std::string started_utc = UtcIso8601();
  ProbeRun probed =
      RunProbes(QuickProbes(ProbesOf(selection->suites), host), host, *profile, options, deadline, budget_s);

  const SuiteContext context{probed.raw, *profile, {}, true, "", options};
  Run run;
  run.record = StartRecord(started_utc, profile->name, host, "health-check",
                           Join(std::vector<std::string>(selection->checks.begin(), selection->checks.end()), ":"),
                           options.slurm_job_id, {host});
  JudgementSteps steps;
  std::size_t checks_judged = 0;
  steps.select = [&](Run& judged) {
    judged.cases = ResultsForNode(judged.cases, *selection, host);
    checks_judged = judged.cases.size();
  };
  // Act: say when the budget ran out, then drain this node on a hardware or configuration
  // failure, or resume it once it passes (unless --no-drain).
  steps.act = [&](Run& judged) {
    if (!probed.budget_problem.empty()) Say(probed.budget_problem);
    if (command.no_drain) return true;
    auto states = SlurmNodeStatesFrom(probed.raw.ClusterOutput(kScontrolProbeId));
    if (!states) {
      Say("cannot drain or resume " + host + ": the controller's record of it could not be read: " + states.error());
      return true;
    }
    bool all_done = true;
    const DrainPlan plan = PlanDrain(judged.cases, {judged.record.run_id, {host}, *states, std::nullopt, true});
    for (auto& action : ApplyDrainPlan(plan, true, true)) {
      Say(action.node + ": " + action.action + " — " + action.why +
          (action.outcome == "none" ? "" : " [" + action.outcome + "]"));
      if (action.outcome.rfind("failed", 0) == 0) all_done = false;
      judged.record.node_actions.push_back(std::move(action));
    }
    return all_done;
  };
  ReportSinks sinks;
  if (!command.json_out.empty()) sinks.push_back(ResultsJsonSink(command.json_out));
  if (!command.junit.empty()) sinks.push_back(JunitFileSink(command.junit));
  const auto terminal = TerminalSink(std::cout, TerminalStyle{false, false});
  const int status =
      JudgeAndReport(EvaluateSuites(selection->suites, context), steps, std::move(run), *terminal, sinks);
  Say(host + ": " + std::to_string(checks_judged) + " quick check(s) in " +
      std::to_string(std::chrono::duration<double>(Clock::now() - start).count()).substr(0, 4) + " s of " +
      std::to_string(budget_s) + " s");
  return status;
}

}  // namespace gpuconform
