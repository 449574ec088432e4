// The MPI sweep's own step: rank 0 of the run starts the sweep worker (mpi_sweep_worker.h)
// on the gated nodes through the launcher the run came from, and waits for it with a
// deadline. The worker's world is its own: when Open MPI ends it (a peer it cannot reach, a
// crash, a hang past the deadline), the run and its report stand.
//   under Slurm (SLURM_JOB_ID): srun --jobid=ID --overlap, one task per gated node, PMIx;
//   under mpirun without Slurm: mpirun -H the gated nodes, one process per node.
// The step's environment is the run's without the variables that tie a process to the
// run's own launch (PMIX_*, the run's SLURM_* step settings, mpirun's OMPI_* job settings).
// Contract: pure; the probe runs the command (process_runner.h).
#pragma once

#include <string>
#include <vector>

namespace gpuconform::mpi_sweep {

enum class StepLauncher { kSrun, kMpirun };

struct SweepStep {
  StepLauncher launcher = StepLauncher::kSrun;
  std::string slurm_job_id;        // kSrun
  std::vector<std::string> nodes;  // one worker on each
  std::string executable;          // the gpuconform binary, at a path every node sees
  std::vector<std::string> worker_args;
};

// `environment`: the run's "NAME=value" entries. Returns "env -i KEPT... LAUNCHER ARGS...".
std::vector<std::string> SweepStepCommand(const SweepStep& step, const std::vector<std::string>& environment);

// Whether the step keeps `entry` ("NAME=value") of the run's environment.
bool KeptInStep(const std::string& entry);

}  // namespace gpuconform::mpi_sweep
