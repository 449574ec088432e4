// How the MPI sweep's workers died, recorded in the sweep's table (cluster/mpi-allreduce.txt)
// in the lines of probes/resource_limits/death_records.h, so that a worker that died of an
// exhausted resource of its node is named by the one rule, live and from a snapshot alike:
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

#include <string>
#include <vector>

#include "probes/resource_limits/death_records.h"

namespace gpuconform::mpi_sweep {

using StepDeath = resource_limits::NodeDeath;
using SweepDeathRecords = resource_limits::DeathRecords;
using resource_limits::DeathLines;
using resource_limits::NodeLimitsLine;
using resource_limits::ParseDeathLines;

// The step's workers (on `nodes`) that ended it, from what the step printed on stderr. `timed_out`: the
// probe's deadline ended the step, so no SIGKILL is the OOM killer's.
std::vector<StepDeath> StepDeaths(const std::string& step_stderr, const std::vector<std::string>& nodes,
                                  bool timed_out);

// Each recorded death a resource explains (ClassifyDeath with the node's limits), named
// "the MPI sweep worker on NODE"; own_check is the suite's to set.
std::vector<resource_limits::ClassifiedDeath> ClassifySweepDeaths(const SweepDeathRecords& records);

}  // namespace gpuconform::mpi_sweep
