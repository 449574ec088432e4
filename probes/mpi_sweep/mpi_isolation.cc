#include "probes/mpi_sweep/mpi_isolation.h"

#include <thread>

#include "harness/core/process_runner.h"
#include "harness/util/hostlist.h"
#include "probes/isolation/isolation_record.h"
#include "probes/mpi_sweep/sweep_run.h"
#include "probes/nccl_tests/nccl_tests_parse.h"
#include "probes/slurm/slurm_topology.h"

namespace gpuconform::mpi_sweep {

namespace {

using isolation::Round;
using isolation::TestResult;

constexpr auto kTopologyTimeout = std::chrono::seconds(10);

// What the site knows of its switches or blocks, with a comment line for the record saying
// where the groups came from or why there are none.
struct SiteGroups {
  std::vector<isolation::SeedGroup> groups;
  std::string comment;
};

SiteGroups SlurmSeedGroups(const CollectiveContext& context) {
  if (!context.options.slurm_job_id) return {{}, "# seed groups: none (not under Slurm); the allocation's order\n"};
  // SLURM_TOPO_LEN: where a site sets it short, scontrol cuts lines silently ("Nodes=no").
  const CommandResult run =
      RunCommand({"env", "SLURM_TOPO_LEN=1000000", "scontrol", "show", "topology"}, kTopologyTimeout);
  if (!run.Succeeded()) {
    return {{}, "# seed groups: none (scontrol show topology did not answer: " +
                    (run.error.empty() ? "exit status " + std::to_string(run.exit_code) : run.error) +
                    "); the allocation's order\n"};
  }
  auto groups = slurm::ParseSlurmTopology(run.stdout_text, context.host + ": scontrol show topology");
  if (!groups) return {{}, "# seed groups: none (" + groups.error() + "); the allocation's order\n"};
  if (groups->empty()) return {{}, "# seed groups: none (Slurm has no topology plugin); the allocation's order\n"};
  SiteGroups site{{}, "# seed groups: Slurm's topology (scontrol show topology)\n"};
  for (auto& group : *groups) site.groups.push_back({group.name, std::move(group.nodes), group.parent});
  return site;
}

// A round's results, or why it is no verdict: a test whose step Slurm refused (or whose
// launcher could not start) never measured its nodes, and counting it as failed would blame them.
struct RoundRun {
  std::vector<TestResult> results;
  std::optional<std::string> refused;
};

// Every test of the round as its own step, all at once (their nodes are disjoint).
RoundRun RunRound(const CollectiveContext& context, const Round& round, const MpiIsolationPlan& plan) {
  const SweepWorkerOptions worker{{plan.scale.size_bytes}, 0, static_cast<int>(plan.test_timeout.count()), 0, {},
                                  true};
  std::vector<StepRun> runs(round.tests.size());
  std::vector<std::thread> threads;
  threads.reserve(round.tests.size());
  for (std::size_t i = 0; i < round.tests.size(); ++i) {
    threads.emplace_back([&, i] {
      runs[i] = RunSweepStep(context, round.tests[i].nodes, worker, IsolationStepDeadline(plan.test_timeout));
    });
  }
  for (auto& thread : threads) thread.join();
  RoundRun round_run;
  std::vector<TestResult>& results = round_run.results;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (const auto refusal = LaunchRefusal(runs[i])) {
      round_run.refused = "round " + std::to_string(round.number) + "'s test on " + runs[i].where + " never ran: " +
                          *refusal + "; the isolation stops rather than blame those nodes for a launch";
      return round_run;
    }
    auto table = nccl_tests::ParseNcclTestsOutput(runs[i].result.stdout_text, "isolation test " + runs[i].where);
    std::optional<nccl_tests::BandwidthTable> parsed;
    if (table) parsed = std::move(table).value();
    results.push_back(JudgeIsolationTest(runs[i].result.Succeeded(), parsed, plan.scale,
                                         static_cast<int>(round.tests[i].nodes.size())));
    // What the step said, for the record: a test that fails for a reason of its own (a launch
    // refused, a node's resource) is told from one that fails for the fault searched for.
    if (!runs[i].result.Succeeded()) results.back().why = "its step " + StepProblem(runs[i]);
  }
  return round_run;
}

}  // namespace

std::chrono::seconds IsolationStepDeadline(std::chrono::seconds test_timeout) {
  return test_timeout * 4 + std::chrono::seconds(10);
}

RawOutput RunMpiIsolation(const CollectiveContext& context, const MpiIsolationPlan& plan) {
  RawOutput out;
  out.origin = context.host + ": isolation of the MPI sweep";
  isolation::PlannerInput input;
  input.nodes = plan.nodes;
  input.node_cap = plan.node_cap;
  const SiteGroups site = plan.screen && plan.screen->outcome == isolation::Outcome::kPass
                              ? SiteGroups{{}, ""}  // nothing to search: no need to ask
                              : SlurmSeedGroups(context);
  input.seed_groups = site.groups;
  out.text = isolation::FormatPlan(input) + site.comment +
             isolation::FormatMeasure(MeasureOf(plan.scale, static_cast<int>(plan.nodes.size())));
  isolation::Planner planner(input);
  const auto started = std::chrono::steady_clock::now();
  const auto step_deadline = IsolationStepDeadline(plan.test_timeout);
  while (!planner.Done()) {
    const Round round = planner.NextRound();
    if (round.tests.empty()) break;
    std::vector<TestResult> results;
    if (round.number == 1 && plan.screen && round.tests.size() == 1 && round.tests[0].nodes.size() == plan.nodes.size()) {
      results = {*plan.screen};  // the sweep was this test
    } else {
      const auto spent = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
      if (spent + step_deadline > plan.deadline) {
        const std::string why = "the isolation's deadline (isolation.deadline_s = " +
                                std::to_string(plan.deadline.count()) + " s) would pass before round " +
                                std::to_string(round.number) + " ended (" + std::to_string(spent.count()) +
                                " s spent, a round may take " + std::to_string(step_deadline.count()) + " s)";
        planner.Stop(why);
        out.text += isolation::FormatStopped(why);
        break;
      }
      RoundRun run = RunRound(context, round, plan);
      if (run.refused) {
        planner.Stop(*run.refused);
        out.text += isolation::FormatStopped(*run.refused);
        break;
      }
      results = std::move(run.results);
    }
    out.text += isolation::FormatRound(round, results);
    planner.Record(results);
  }
  out.status = ProbeStatus::kOk;
  return out;
}

}  // namespace gpuconform::mpi_sweep
