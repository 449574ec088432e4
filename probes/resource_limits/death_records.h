// How a probe records the workers it started that died, and its nodes' limits, as comment lines
// in its own raw output (a table's "#" lines, which its parser skips), so that the one rule on
// deaths of a node's resource (death_verdicts.h) reads them back, live and from a snapshot alike:
//   # limits shm_bytes=65536 ... node=node3      the node's limits (node_limits.h), measured
//                                                where its workers run
//   # worker-died node=node3 exit=135 signal=7   each worker that ended before its probe ended it
//   # worker-said node=node3 text="..."          and what it said (stderr, its log's warnings)
// Used by the MPI sweep (probes/mpi_sweep/step_deaths.h) and gpuconform's NCCL run
// (probes/nccl_run/nccl_worker_death.h). An output written before these lines has none: no
// death, nothing classified.
// Contract: pure.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "probes/resource_limits/death_verdicts.h"
#include "probes/resource_limits/resource_exhaustion.h"

namespace gpuconform::resource_limits {

struct NodeDeath {
  std::string node;
  WorkerDeath death;
};

// Adds `line` to what the worker said, up to 24 lines of at most 300 characters each.
void KeepLine(WorkerDeath& death, std::string_view line);

// The "# worker-died" and "# worker-said" lines of `deaths`.
std::string DeathLines(const std::vector<NodeDeath>& deaths);
// The node's "# limits ... node=NODE" line, newline included.
std::string NodeLimitsLine(const std::string& node, const NodeLimits& limits);

// What an output records: each node's death and limits.
struct DeathRecords {
  std::map<std::string, WorkerDeath> deaths;
  std::map<std::string, NodeLimits> limits;
};
DeathRecords ParseDeathLines(const std::string& text);

// Each recorded death a resource explains (ClassifyDeath with the node's limits), named
// "<worker> on NODE" ("the NCCL worker on node3"); own_check is the suite's to set.
std::vector<ClassifiedDeath> ClassifyRecordedDeaths(const DeathRecords& records, const std::string& worker);

}  // namespace gpuconform::resource_limits
