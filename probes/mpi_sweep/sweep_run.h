// What the MPI sweep's probes share (mpi_allreduce_probe.h, mpi_collectives_probe.h): the gate
// from the run's shared fabric mesh (sweep_gate.h), one run of the worker as its own step
// (sweep_step.h) with a deadline, and the words a report quotes when the gate leaves too few
// nodes or the step does not succeed.
// Contract: GatherSweepGate is a collective of the run (every rank calls it); RunSweepStep runs
// a process and is called on rank 0 only; the rest is pure.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/probe.h"
#include "harness/core/process_runner.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "probes/mpi_sweep/mpi_sweep_worker.h"
#include "probes/mpi_sweep/sweep_gate.h"

namespace gpuconform::mpi_sweep {

inline constexpr const char* kRankStopped =
    "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server)";

// Every node's part of `mesh` gathered to rank 0, which gets the nodes the step may include;
// the other ranks get an empty gate.
SweepGate GatherSweepGate(const CollectiveContext& context, const fabric_reach::FabricMesh& mesh);

// The output of a probe whose run has one rank: nothing to measure between nodes; `what` is
// "allreduce bandwidth".
RawOutput OneRankOnly(const CollectiveContext& context, const std::string& origin, const std::string& what);

// Rank 0, before the step: `out.text` gets the gate's "# excluded" lines. False where fewer than
// two nodes reach each other: `out` is then kFailed, saying why, and there is no step to run.
bool StartFromGate(RawOutput& out, const CollectiveContext& context, const fabric_reach::FabricMesh& mesh,
                   const SweepGate& gate);

// One run of the worker as its own step (rank 0 only).
struct StepRun {
  CommandResult result;
  std::string where;  // the step's nodes, as a short hostlist
  std::chrono::seconds deadline{0};
};

StepRun RunSweepStep(const CollectiveContext& context, const std::vector<std::string>& nodes,
                     const SweepWorkerOptions& worker, std::chrono::seconds deadline);

// How a step that did not succeed ended: "ended with exit status 255", with what it said.
std::string StepProblem(const StepRun& run);

// Where the step never ran its workers: the launcher was missing or could not be started,
// or Slurm refused the step or a node's task launch ("srun: error: Unable to create step",
// "Task launch for StepId=... failed on node node4: ..."): what happened, in srun's words.
// Such a step says nothing of the fabric between its nodes, so it is no test's verdict.
std::optional<std::string> LaunchRefusal(const StepRun& run);

// "<host>: <step_name> on node[1-3] (the gate left out node4) ended with ...; the run and every
// other check stand": the detail of a probe whose step did not succeed.
std::string FailedStepDetail(const CollectiveContext& context, const std::string& step_name, const StepRun& run,
                             const SweepGate& gate);

}  // namespace gpuconform::mpi_sweep
