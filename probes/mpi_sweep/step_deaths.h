// How the MPI sweep's workers died, recorded in the sweep's table (cluster/mpi-allreduce.txt)
// so that a worker that died of an exhausted resource of its node is named by the one rule
// (probes/resource_limits), live and from a snapshot alike:
//   # limits node=node3 shm_bytes=65536 ...      each worker, on its node, before MPI starts
//                                                (node_limits.h: the step's own mounts and rlimits)
//   # worker-died node=node3 exit=135 signal=7   the probe, from the launcher's words for each
//   # worker-said node=node3 text="..."          worker that ended the step, and what it said
// The launcher's words: srun's "srun: error: node3: task 2: Bus error" (or "tasks 1-3: Out Of
// Memory", "Exited with exit code 3"), or mpirun's "process rank 2 ... on node node3 exited on
// signal 7". Only the workers that died before the launcher ended the step count: srun's
// "Terminating StepId", a "STEP ... CANCELLED" or the probe's deadline make the rest a
// consequence (their SIGKILL is not the OOM killer's). A line that names a node ("node3: ...",
// "[node3:1234] ...", NCCL's "node3:1234:1240 [0] ...") is that node's; any other line
// (Open MPI's help text, slurmstepd's oom_kill notice) is the first dead worker's.
// Tables written before these lines existed have none: no death, nothing classified.
// Contract: pure.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "probes/resource_limits/death_verdicts.h"
#include "probes/resource_limits/resource_exhaustion.h"

namespace gpuconform::mpi_sweep {

struct StepDeath {
  std::string node;
  resource_limits::WorkerDeath death;
};

// The step's workers (on `nodes`) that ended it, from what the step printed on stderr. `timed_out`: the
// probe's deadline ended the step, so no SIGKILL is the OOM killer's.
std::vector<StepDeath> StepDeaths(const std::string& step_stderr, const std::vector<std::string>& nodes,
                                  bool timed_out);

// The "# worker-died" and "# worker-said" lines of `deaths`.
std::string DeathLines(const std::vector<StepDeath>& deaths);
// The worker's "# limits node=NODE ..." line, newline included.
std::string NodeLimitsLine(const std::string& node, const resource_limits::NodeLimits& limits);

// What a table records: each node's death and limits.
struct SweepDeathRecords {
  std::map<std::string, resource_limits::WorkerDeath> deaths;
  std::map<std::string, resource_limits::NodeLimits> limits;
};
SweepDeathRecords ParseDeathLines(const std::string& table);

// Each recorded death a resource explains (ClassifyDeath with the node's limits), named
// "the MPI sweep worker on NODE"; own_check is the suite's to set.
std::vector<resource_limits::ClassifiedDeath> ClassifySweepDeaths(const SweepDeathRecords& records);

}  // namespace gpuconform::mpi_sweep
