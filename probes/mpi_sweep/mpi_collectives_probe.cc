#include "probes/mpi_sweep/mpi_collectives_probe.h"

#include <algorithm>
#include <chrono>

#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "probes/mpi_sweep/collectives_profile.h"
#include "probes/mpi_sweep/sweep_gate.h"
#include "probes/mpi_sweep/sweep_run.h"

namespace gpuconform::mpi_sweep {

namespace {

RawOutput Measure(const CollectiveContext& context) {
  RawOutput out;
  out.origin = context.host + ": MPI collectives sweep";
  const std::vector<std::string> collectives = CollectivesWithFloors(context.profile);
  if (collectives.empty()) {
    // Every rank reads the same profile, so every rank returns here, before any collective.
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": not measured: the profile sets no collectives floor";
    return out;
  }
  if (context.world.size() < 2) {
    return OneRankOnly(context, out.origin, "alltoall, allgather and reduce_scatter bandwidth");
  }
  // The same gate as the allreduce sweep, from the mesh measured once for the run.
  const fabric_reach::FabricMesh& mesh = fabric_reach::SharedFabricMesh(context);
  const SweepGate gate = GatherSweepGate(context, mesh);
  const std::vector<long long> sizes = MpiCollectiveSizes(context.profile, context.options);
  const auto timeout = std::chrono::seconds(context.options.collective_timeout_s);
  // Every collective of the worker has this deadline: each collective at each size, MPI_Init and
  // the exchange of host names; the step as a whole gets their sum and a margin.
  const auto step_deadline =
      timeout * static_cast<long>(collectives.size() * sizes.size() + 3) + std::chrono::seconds(30);
  if (context.world.is_root() && StartFromGate(out, context, mesh, gate)) {
    const SweepWorkerOptions worker{sizes, context.options.allreduce_iters, context.options.collective_timeout_s, 0,
                                    collectives};
    const StepRun step = RunSweepStep(context, gate.included, worker, step_deadline);
    out.text = step.result.stdout_text + out.text;
    if (step.result.Succeeded()) {
      out.status = ProbeStatus::kOk;
    } else {
      out.status = ProbeStatus::kFailed;
      out.detail = FailedStepDetail(context, "the MPI collectives step", step, gate);
    }
  }
  // The other ranks wait without spinning: the step's workers need the cores.
  context.world.SleepingBarrier({"the MPI collectives step", step_deadline + std::chrono::seconds(30),
                                 "rank 0 did not return from the MPI collectives step"});
  return out;
}

}  // namespace

std::vector<std::string> CollectivesWithFloors(const Profile* profile) {
  std::vector<std::string> names;
  if (profile == nullptr) return names;
  const CollectiveFloors& section = profile->GetOrDefault<CollectiveFloors>();
  for (const auto& collective : allreduce_sweep::BeyondAllreduce()) {
    if (!FloorsOf(section, collective.name).empty()) names.push_back(collective.name);
  }
  return names;
}

std::vector<long long> MpiCollectiveSizes(const Profile* profile, const RunOptions& options) {
  std::vector<long long> sizes;
  if (profile == nullptr) return sizes;
  long long cap = allreduce_sweep::kGiB;
  if (options.allreduce_max_bytes > 0) cap = std::min(cap, options.allreduce_max_bytes);
  for (const auto& floor : profile->GetOrDefault<CollectiveFloors>().floors) {
    sizes.push_back(std::min(floor.size_bytes, cap));
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

ProbeSpec MpiCollectivesProbe() {
  ProbeSpec spec = CollectiveProbe("mpi-collectives", "mpi-collectives.txt", Measure);
  spec.scope = ProbeScope::kCluster;
  return Active(spec);
}

}  // namespace gpuconform::mpi_sweep
