#include "probes/mpi_sweep/sweep_run.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "harness/util/hostlist.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/mpi_sweep/sweep_step.h"
#include "probes/slurm/srun_parse.h"

namespace gpuconform::mpi_sweep {

namespace {

namespace fs = std::filesystem;

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

}  // namespace

SweepGate GatherSweepGate(const CollectiveContext& context, const fabric_reach::FabricMesh& mesh) {
  const auto parts = context.world.GatherToRoot(
      MeshRecords(context, mesh), {"the gather of fabric reachability", std::chrono::seconds(60), kRankStopped});
  if (!context.world.is_root()) return {};
  return GateFromMesh(parts, context.rank_hosts);
}

RawOutput OneRankOnly(const CollectiveContext& context, const std::string& origin, const std::string& what) {
  RawOutput out;
  out.origin = origin;
  out.status = ProbeStatus::kToolMissing;
  out.detail = context.host + ": one rank only: start gpuconform under srun or mpirun on two or more nodes to "
               "measure " + what;
  return out;
}

bool StartFromGate(RawOutput& out, const CollectiveContext& context, const fabric_reach::FabricMesh& mesh,
                   const SweepGate& gate) {
  out.text = ExcludedLines(gate.excluded);
  if (gate.included.size() >= 2) return true;
  out.status = ProbeStatus::kFailed;
  out.detail = context.host + ": not measured: fewer than two nodes reach each other over the fabric" +
               (mesh.ifname.empty() ? "" : " (" + mesh.ifname + ")") +
               ", and Open MPI ends the whole step at the first peer it cannot reach; " + Reasons(gate.excluded) +
               " (Interfaces.FabricReachable and Interfaces.FabricInterfaceUp name the cause)";
  return false;
}

StepRun RunSweepStep(const CollectiveContext& context, const std::vector<std::string>& nodes,
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

std::optional<std::string> LaunchRefusal(const StepRun& run) {
  if (run.result.outcome == CommandOutcome::kNotFound || run.result.outcome == CommandOutcome::kSpawnFailed) {
    return "its step " + StepProblem(run);
  }
  if (run.result.Succeeded()) return std::nullopt;
  const std::vector<RefusedNode> refused = slurm::ParseSrunLaunchRefusals(run.result.stderr_text);
  if (!refused.empty()) return "Slurm refused its task launch: " + refused.front().slurm_error;
  for (const auto line : SplitLines(run.result.stderr_text)) {
    if (line.find("Unable to create step") != std::string_view::npos) {
      return "Slurm refused its step: " + std::string(Trim(line));
    }
  }
  return std::nullopt;
}

std::string FailedStepDetail(const CollectiveContext& context, const std::string& step_name, const StepRun& run,
                             const SweepGate& gate) {
  return context.host + ": " + step_name + " on " + run.where +
         (gate.excluded.empty() ? "" : " (the gate left out " + Names(gate.excluded) + ")") + " " + StepProblem(run) +
         "; the run and every other check stand";
}

}  // namespace gpuconform::mpi_sweep
