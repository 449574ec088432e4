#include "probes/mpi_sweep/mpi_allreduce_probe.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "probes/allreduce_sweep/latency_profile.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "probes/mpi_sweep/mpi_sweep_worker.h"
#include "probes/isolation/isolation_profile.h"
#include "probes/mpi_sweep/mpi_isolation.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/mpi_sweep/step_deaths.h"
#include "probes/mpi_sweep/sweep_gate.h"
#include "probes/mpi_sweep/sweep_run.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::mpi_sweep {

using namespace gpuconform::allreduce_sweep;
using nccl_tests::ParseNcclTestsOutput;

namespace {

// The allocation's nodes, in rank order, each once.
std::vector<std::string> AllocationNodes(const CollectiveContext& context) {
  std::vector<std::string> nodes;
  std::set<std::string> seen;
  for (const auto& host : context.rank_hosts) {
    if (seen.insert(host).second) nodes.push_back(host);
  }
  return nodes;
}

// What the isolation measures and judges by: the profile's allreduce floors where it judges the
// MPI host path (not on a GPU profile, whose floors are NCCL's), at a size the sweep measured.
IsolationScale ScaleFor(const CollectiveContext& context, const std::vector<long long>& sizes, int nodes) {
  const long long fallback = std::min(sizes.back(), 8 * kMiB);
  if (context.profile == nullptr || context.profile->ExpectsGpus()) return IsolationScaleFor({}, nodes, fallback);
  IsolationScale scale =
      IsolationScaleFor(context.profile->GetOrDefault<AllreduceFloors>().floors, nodes, fallback);
  if (std::find(sizes.begin(), sizes.end(), scale.size_bytes) == sizes.end()) {
    return IsolationScaleFor({}, nodes, fallback);  // capped below the floor's size: not judged there
  }
  return scale;
}

// The isolation needs nodes known good to confirm a suspect with, which on three or four nodes
// a first split rarely leaves (a failing pair of a three-node allocation has no third node to
// tell its two apart). There the neighbour pairs, one step each and each suspect once more
// with a node known good, name the node in as many steps as the isolation would take rounds,
// without needing good nodes beforehand: the pair blame is kept where it is the cheaper.
constexpr std::size_t kFewestIsolationNodes = 5;

// Blame after a failed sweep on fewer than kFewestIsolationNodes nodes: every neighbour pair of
// the gated nodes runs an allreduce alone, as its own step, so that the node whose link drops
// or stalls traffic is named (a node in every failed pair) rather than the whole sweep. Returns
// the pairs' lines.
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

// The isolation's output on an allocation too small for it: not run, saying what names the node.
RawOutput TooFewToIsolate(const CollectiveContext& context, const std::string& origin, std::size_t nodes) {
  RawOutput out;
  out.origin = origin;
  out.status = ProbeStatus::kToolMissing;
  out.detail = context.host + ": " + std::to_string(nodes) + " node(s): the isolation runs on " +
               std::to_string(kFewestIsolationNodes) +
               " or more; on fewer, a failed sweep is followed by its neighbour pairs, and MpiNoSlowNode names the node";
  return out;
}

struct MpiSweepOutputs {
  RawOutput sweep;      // cluster/mpi-allreduce.txt
  RawOutput isolation;  // cluster/isolation.txt
};

MpiSweepOutputs Measure(const CollectiveContext& context) {
  MpiSweepOutputs outputs;
  RawOutput& out = outputs.sweep;
  outputs.isolation.origin = context.host + ": isolation of the MPI sweep";
  out.origin = context.host + ": MPI_Allreduce sweep";
  if (context.world.size() < 2) {
    out = OneRankOnly(context, out.origin, "allreduce bandwidth");
    outputs.isolation = OneRankOnly(context, outputs.isolation.origin, "which nodes a collective fails with");
    return outputs;
  }
  // The gate: the fabric mesh, measured once for the run (FabricReachable reads the same).
  const fabric_reach::FabricMesh& mesh = fabric_reach::SharedFabricMesh(context);
  const SweepGate gate = GatherSweepGate(context, mesh);
  const std::vector<long long> sizes = MpiSweepSizes(context.profile, context.options);
  const auto timeout = std::chrono::seconds(context.options.collective_timeout_s);
  // Every collective of the worker has this deadline: the sizes, the pairs (a ring and its
  // confirmations), MPI_Init; the step as a whole gets their sum and a margin.
  const std::vector<std::string> nodes = AllocationNodes(context);
  // (The latency band's sizes take milliseconds together: one deadline covers them.)
  const auto bandwidth_sizes =
      std::count_if(sizes.begin(), sizes.end(), [](long long size) { return size > kLargestLatencyBytes; });
  const auto step_deadline =
      timeout * static_cast<long>(bandwidth_sizes + 1 + 2 * nodes.size() + 3) + std::chrono::seconds(30);
  // A failed or slow sweep is followed by the isolation: rounds of concurrent tests, each
  // collective under a shorter deadline, all within the profile's isolation deadline.
  const isolation::IsolationLimits limits =
      context.profile != nullptr ? context.profile->GetOrDefault<isolation::IsolationLimits>()
                                 : isolation::IsolationLimits{};
  MpiIsolationPlan plan{nodes, ScaleFor(context, sizes, static_cast<int>(nodes.size())), std::nullopt,
                        limits.node_cap, std::chrono::seconds(limits.deadline_s),
                        std::min(timeout, std::chrono::seconds(15))};
  // After the sweep: the isolation within its deadline, or on a small allocation the pair steps
  // (each neighbour pair and a confirmation per node at most).
  const auto blame_deadline = nodes.size() < kFewestIsolationNodes
                                  ? IsolationStepDeadline(plan.test_timeout) * static_cast<long>(2 * nodes.size())
                                  : std::chrono::seconds(0);
  const auto all_steps_deadline =
      step_deadline + std::max(plan.deadline, blame_deadline) + IsolationStepDeadline(plan.test_timeout);
  if (context.world.is_root() && StartFromGate(out, context, mesh, gate)) {
    // Pairs at the sweep's largest size, capped at 8 MiB so a slow link costs seconds.
    const StepRun sweep =
        RunSweepStep(context, gate.included,
                     {sizes, context.options.allreduce_iters, context.options.collective_timeout_s,
                      std::min(sizes.back(), 8 * kMiB), {}, false},
                     step_deadline);
    out.text = sweep.result.stdout_text + out.text;
    if (sweep.result.Succeeded()) {
      out.status = ProbeStatus::kOk;
    } else {
      out.status = ProbeStatus::kFailed;
      out.detail = FailedStepDetail(context, "the MPI sweep step", sweep, gate) +
                   (nodes.size() < kFewestIsolationNodes
                        ? (gate.included.size() >= 3 ? ", and each neighbour pair was measured alone to find the node" : "")
                        : "; AllreduceBandwidth.MpiFaultIsolation says which nodes it fails with");
      // Each worker that ended the step, with what it said, for the one rule on deaths of a
      // node's resource (step_deaths.h).
      out.text += DeathLines(StepDeaths(sweep.result.stderr_text, gate.included,
                                        sweep.result.outcome == CommandOutcome::kTimedOut));
    }
    if (nodes.size() < kFewestIsolationNodes) {
      if (!sweep.result.Succeeded()) {
        out.text += BlamePairs(context, gate.included, std::min(sizes.back(), 8 * kMiB), plan.test_timeout,
                               IsolationStepDeadline(plan.test_timeout));
      }
      outputs.isolation = TooFewToIsolate(context, outputs.isolation.origin, nodes.size());
    } else {
      // The sweep is the isolation's screen where it ran on every node; otherwise a screen runs.
      if (gate.excluded.empty()) {
        auto table = ParseNcclTestsOutput(sweep.result.stdout_text, "the MPI sweep");
        std::optional<nccl_tests::BandwidthTable> parsed;
        if (table) parsed = std::move(table).value();
        plan.screen =
            JudgeIsolationTest(sweep.result.Succeeded(), parsed, plan.scale, static_cast<int>(nodes.size()));
      }
      outputs.isolation = RunMpiIsolation(context, plan);
    }
  } else if (context.world.is_root() && nodes.size() >= kFewestIsolationNodes) {
    // Fewer than two nodes reach each other: a test of every node fails at once, and the
    // isolation still says which nodes or pairs.
    outputs.isolation = RunMpiIsolation(context, plan);
  } else if (context.world.is_root()) {
    outputs.isolation = TooFewToIsolate(context, outputs.isolation.origin, nodes.size());
  }
  // The other ranks wait without spinning: the step's workers need the cores.
  context.world.SleepingBarrier({"the MPI sweep step and its isolation", all_steps_deadline + std::chrono::seconds(30),
                                 "rank 0 did not return from the MPI sweep step or its isolation"});
  return outputs;
}

// The sweep and its isolation run once per run, whichever of their probes asks first.
const MpiSweepOutputs& SharedMpiSweep(const CollectiveContext& context) {
  static const MpiSweepOutputs outputs = Measure(context);
  return outputs;
}

}  // namespace

std::vector<long long> MpiSweepSizes(const Profile* profile, const RunOptions& options) {
  // The latency band first (8 B to 64 KiB, a few milliseconds in all), then the bandwidth
  // sizes from 1 MiB; host buffers: keep a node's memory safe whatever a profile says.
  std::vector<long long> sizes = LatencySizes();
  for (long long size : SweepSizes(profile, kMiB, kGiB, options.allreduce_max_bytes)) {
    if (size > sizes.back()) sizes.push_back(size);
  }
  return sizes;
}

ProbeSpec MpiAllreduceProbe() {
  ProbeSpec spec = CollectiveProbe("mpi-allreduce", "mpi-allreduce.txt",
                                   [](const CollectiveContext& context) { return SharedMpiSweep(context).sweep; });
  spec.scope = ProbeScope::kCluster;
  return Active(spec);
}

ProbeSpec MpiIsolationProbe() {
  ProbeSpec spec = CollectiveProbe("mpi-isolation", "isolation.txt",
                                   [](const CollectiveContext& context) { return SharedMpiSweep(context).isolation; });
  spec.scope = ProbeScope::kCluster;
  return Active(spec);
}

}  // namespace gpuconform::mpi_sweep
