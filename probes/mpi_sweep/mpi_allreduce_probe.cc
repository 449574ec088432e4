#include "probes/mpi_sweep/mpi_allreduce_probe.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

#include "harness/core/process_runner.h"
#include "harness/util/hostlist.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "probes/mpi_sweep/mpi_sweep_worker.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/mpi_sweep/step_deaths.h"
#include "probes/mpi_sweep/sweep_gate.h"
#include "probes/mpi_sweep/sweep_step.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::mpi_sweep {

using namespace gpuconform::allreduce_sweep;
using nccl_tests::ParseNcclTestsOutput;

namespace {

namespace fs = std::filesystem;

constexpr const char* kRankStopped =
    "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server)";

// Each node's part of the fabric mesh, for rank 0: the connections it could not make, and
// why it could not take part at all.
std::string MeshRecords(const CollectiveContext& context, const fabric_reach::FabricMesh& mesh) {
  if (!context.node_owner) return "";
  std::string text = FormatRecord("node", {{"name", context.host}}) + "\n";
  if (!mesh.untestable.empty()) text += FormatRecord("untestable", {{"why", mesh.untestable}}) + "\n";
  for (const auto& failed : mesh.failures) {
    text += FormatRecord("unreachable", {{"to", failed.to}, {"addr", failed.address}, {"error", failed.error}}) + "\n";
  }
  return text;
}

// Rank 0: which nodes the sweep may include, from every node's part of the mesh.
SweepGate GateFromMesh(const std::vector<std::string>& parts, const std::vector<std::string>& rank_hosts) {
  std::vector<std::string> nodes;
  for (const auto& host : rank_hosts) {
    if (std::find(nodes.begin(), nodes.end(), host) == nodes.end()) nodes.push_back(host);
  }
  std::vector<UnreachablePair> unreachable;
  std::vector<ExcludedNode> untestable;
  for (const auto& part : parts) {
    auto records = ParseRecordLines(part, "the fabric mesh");
    if (!records || records->empty()) continue;  // our own format: a rank with no node (not its owner)
    const std::string from = records->front().Get("name");
    for (const auto& record : *records) {
      if (record.kind == "untestable") untestable.push_back({from, record.Get("why")});
      if (record.kind == "unreachable") {
        unreachable.push_back({from, record.Get("to"), record.Get("addr"), record.Get("error")});
      }
    }
  }
  return DecideSweepNodes(nodes, unreachable, untestable);
}

// "node3" or "node[2-3]": the nodes the gate left out.
std::string Names(const std::vector<ExcludedNode>& excluded) {
  std::vector<std::string> names;
  for (const auto& node : excluded) names.push_back(node.node);
  return ShortHostlist(names);
}

// "node3: node1 cannot connect to node3 at ...; ...", or "no node" when none was left out.
std::string Reasons(const std::vector<ExcludedNode>& excluded) {
  std::vector<std::string> reasons;
  for (const auto& node : excluded) reasons.push_back(node.node + ": " + node.why);
  return reasons.empty() ? "no node" : Join(reasons, "; ");
}

// The run's environment, for the step to inherit what it should.
std::vector<std::string> RunEnvironment() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) entries.emplace_back(*entry);
  return entries;
}

// The last lines of what the step printed, for the report: Open MPI's and Slurm's own words.
std::string OutputTail(const std::string& text) {
  constexpr std::size_t kLines = 12;
  constexpr std::size_t kBytes = 1500;
  std::vector<std::string> lines;
  for (std::string_view line : SplitLines(text)) {
    const std::string_view trimmed = Trim(line);
    if (!trimmed.empty() && trimmed.find_first_not_of("-*=") != std::string_view::npos) lines.emplace_back(trimmed);
  }
  if (lines.size() > kLines) lines.erase(lines.begin(), lines.end() - static_cast<long>(kLines));
  std::string tail = Join(lines, " | ");
  if (tail.size() > kBytes) tail = "..." + tail.substr(tail.size() - kBytes);
  return tail;
}

// One run of the worker as its own step (rank 0 only).
struct StepRun {
  CommandResult result;
  std::string where;  // the step's nodes, as a short hostlist
  std::chrono::seconds deadline{0};
};

StepRun RunStep(const CollectiveContext& context, const std::vector<std::string>& nodes,
                const SweepWorkerOptions& worker, std::chrono::seconds deadline) {
  SweepStep step;
  step.launcher = context.options.slurm_job_id ? StepLauncher::kSrun : StepLauncher::kMpirun;
  step.slurm_job_id = context.options.slurm_job_id.value_or("");
  step.nodes = nodes;
  std::error_code error;
  step.executable = fs::read_symlink("/proc/self/exe", error).string();
  step.worker_args = SweepWorkerArgs(worker);
  StepRun run;
  run.where = ShortHostlist(nodes);
  run.deadline = deadline;
  run.result = RunCommand(SweepStepCommand(step, RunEnvironment()), deadline);
  return run;
}

// How a step that did not succeed ended: "ended with exit status 255", with what it said.
std::string StepProblem(const StepRun& run) {
  std::string what;
  switch (run.result.outcome) {
    case CommandOutcome::kExited: what = "ended with exit status " + std::to_string(run.result.exit_code); break;
    case CommandOutcome::kTimedOut:
      what = "did not finish within " + std::to_string(run.deadline.count()) + " s and was killed";
      break;
    case CommandOutcome::kNotFound: what = "could not start: its launcher (srun or mpirun) is not on PATH"; break;
    case CommandOutcome::kSpawnFailed: what = "could not start: " + run.result.error; break;
  }
  const std::string said = OutputTail(run.result.stderr_text);
  return what + (said.empty() ? "" : "; it said: " + said);
}

// Blame after a failed sweep: every neighbour pair of the gated nodes runs an allreduce alone,
// as its own step, so that the node whose link drops or stalls traffic is named (a
// node in every failed pair) rather than the whole sweep. Returns the pairs' lines.
std::string BlamePairs(const CollectiveContext& context, const std::vector<std::string>& nodes, long long size_bytes,
                       std::chrono::seconds pair_timeout, std::chrono::seconds pair_deadline) {
  if (nodes.size() < 3) return "";  // one pair: nothing to compare it with
  std::vector<PairResult> pairs;
  // Each pair at the size the sweep's own pairs use, with the planned iterations: a link that
  // drops a fraction of its packets then slows every pair it is in, not only some.
  auto measure = [&](const std::string& a, const std::string& b) {
    PairResult pair{a, b, size_bytes, 0, ""};
    const StepRun run = RunStep(context, {a, b}, {{size_bytes}, 0, static_cast<int>(pair_timeout.count()), 0},
                                pair_deadline);
    auto table = ParseNcclTestsOutput(run.result.stdout_text, "the pair step");
    if (run.result.Succeeded() && table && !table->rows.empty()) {
      pair.busbw_gb_per_s = table->rows.back().busbw_gb_per_s;
    } else {
      pair.failure = "its step " + StepProblem(run);
    }
    pairs.push_back(pair);
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) measure(nodes[i], nodes[(i + 1) % nodes.size()]);
  // As in the sweep: a suspect is measured once more with a node known good.
  for (const auto& [suspect, good] : ConfirmationPairs(pairs)) measure(suspect, good);
  std::string lines;
  for (const auto& pair : pairs) lines += PairLine(pair);
  return lines;
}

RawOutput Measure(const CollectiveContext& context) {
  RawOutput out;
  out.origin = context.host + ": MPI_Allreduce sweep";
  if (context.world.size() < 2) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": one rank only: start gpuconform under srun or mpirun on two or more nodes to "
                 "measure allreduce bandwidth";
    return out;
  }
  // The gate: the fabric mesh, measured once for the run (FabricReachable reads the same).
  const fabric_reach::FabricMesh& mesh = fabric_reach::SharedFabricMesh(context);
  const auto parts = context.world.GatherToRoot(
      MeshRecords(context, mesh), {"the gather of fabric reachability", std::chrono::seconds(60), kRankStopped});
  const std::vector<long long> sizes = MpiSweepSizes(context.profile, context.options);
  const auto timeout = std::chrono::seconds(context.options.collective_timeout_s);
  // Every collective of the worker has this deadline: the sizes, the pairs (a ring and its
  // confirmations), MPI_Init; the step as a whole gets their sum and a margin.
  std::set<std::string> hosts(context.rank_hosts.begin(), context.rank_hosts.end());
  const auto step_deadline = timeout * static_cast<long>(sizes.size() + 2 * hosts.size() + 3) + std::chrono::seconds(30);
  // A failed sweep is followed by the blame pass: one small step per neighbour pair.
  const auto pair_timeout = std::min(timeout, std::chrono::seconds(15));
  const auto pair_deadline = pair_timeout * 3 + std::chrono::seconds(10);
  const auto all_steps_deadline = step_deadline + pair_deadline * static_cast<long>(2 * hosts.size());
  if (context.world.is_root()) {
    const SweepGate gate = GateFromMesh(parts, context.rank_hosts);
    out.text = ExcludedLines(gate.excluded);
    if (gate.included.size() < 2) {
      out.status = ProbeStatus::kFailed;
      out.detail = context.host + ": not measured: fewer than two nodes reach each other over the fabric" +
                   (mesh.ifname.empty() ? "" : " (" + mesh.ifname + ")") +
                   ", and Open MPI ends the whole step at the first peer it cannot reach; " + Reasons(gate.excluded) +
                   " (Interfaces.FabricReachable and Interfaces.FabricInterfaceUp name the cause)";
    } else {
      // Pairs at the sweep's largest size, capped at 8 MiB so a slow link costs seconds.
      const StepRun sweep =
          RunStep(context, gate.included,
                  {sizes, context.options.allreduce_iters, context.options.collective_timeout_s, std::min(sizes.back(), 8 * kMiB)},
                  step_deadline);
      out.text = sweep.result.stdout_text + out.text;
      if (sweep.result.Succeeded()) {
        out.status = ProbeStatus::kOk;
      } else {
        out.status = ProbeStatus::kFailed;
        out.detail = context.host + ": the MPI sweep step on " + sweep.where +
                     (gate.excluded.empty() ? "" : " (the gate left out " + Names(gate.excluded) + ")") + " " +
                     StepProblem(sweep) + "; the run and every other check stand" +
                     (gate.included.size() >= 3 ? ", and each neighbour pair was measured alone to find the node" : "");
        // Each worker that ended the step, with what it said, for the one rule on deaths of a
        // node's resource (step_deaths.h): before the pairs, which die of the same.
        out.text += DeathLines(StepDeaths(sweep.result.stderr_text, gate.included,
                                          sweep.result.outcome == CommandOutcome::kTimedOut));
        out.text += BlamePairs(context, gate.included, std::min(sizes.back(), 8 * kMiB), pair_timeout, pair_deadline);
      }
    }
  }
  // The other ranks wait without spinning: the step's workers need the cores.
  context.world.SleepingBarrier({"the MPI sweep step", all_steps_deadline + std::chrono::seconds(30),
                                 "rank 0 did not return from the MPI sweep step"});
  return out;
}

}  // namespace

std::vector<long long> MpiSweepSizes(const Profile* profile, const RunOptions& options) {
  // Host buffers: keep a node's memory safe whatever a profile says.
  return SweepSizes(profile, kMiB, kGiB, options.allreduce_max_bytes);
}

ProbeSpec MpiAllreduceProbe() {
  ProbeSpec spec = CollectiveProbe("mpi-allreduce", "mpi-allreduce.txt", Measure);
  spec.scope = ProbeScope::kCluster;
  return Active(spec);
}

}  // namespace gpuconform::mpi_sweep
