#include "probes/mpi_sweep/mpi_allreduce_probe.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "probes/allreduce_sweep/sweep.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "probes/mpi_sweep/mpi_sweep_worker.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/mpi_sweep/step_deaths.h"
#include "probes/mpi_sweep/sweep_gate.h"
#include "probes/mpi_sweep/sweep_run.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::mpi_sweep {

using namespace gpuconform::allreduce_sweep;
using nccl_tests::ParseNcclTestsOutput;

namespace {

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
    const StepRun run = RunSweepStep(context, {a, b}, {{size_bytes}, 0, static_cast<int>(pair_timeout.count()), 0},
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
  if (context.world.size() < 2) return OneRankOnly(context, out.origin, "allreduce bandwidth");
  // The gate: the fabric mesh, measured once for the run (FabricReachable reads the same).
  const fabric_reach::FabricMesh& mesh = fabric_reach::SharedFabricMesh(context);
  const SweepGate gate = GatherSweepGate(context, mesh);
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
  if (context.world.is_root() && StartFromGate(out, context, mesh, gate)) {
    // Pairs at the sweep's largest size, capped at 8 MiB so a slow link costs seconds.
    const StepRun sweep =
        RunSweepStep(context, gate.included,
                     {sizes, context.options.allreduce_iters, context.options.collective_timeout_s,
                      std::min(sizes.back(), 8 * kMiB)},
                     step_deadline);
    out.text = sweep.result.stdout_text + out.text;
    if (sweep.result.Succeeded()) {
      out.status = ProbeStatus::kOk;
    } else {
      out.status = ProbeStatus::kFailed;
      out.detail = FailedStepDetail(context, "the MPI sweep step", sweep, gate) +
                   (gate.included.size() >= 3 ? ", and each neighbour pair was measured alone to find the node" : "");
      // Each worker that ended the step, with what it said, for the one rule on deaths of a
      // node's resource (step_deaths.h): before the pairs, which die of the same.
      out.text += DeathLines(StepDeaths(sweep.result.stderr_text, gate.included,
                                        sweep.result.outcome == CommandOutcome::kTimedOut));
      out.text += BlamePairs(context, gate.included, std::min(sizes.back(), 8 * kMiB), pair_timeout, pair_deadline);
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
