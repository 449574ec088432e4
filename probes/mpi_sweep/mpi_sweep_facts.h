// Typed readers of the MPI sweep's own lines in its table (cluster/mpi-allreduce.txt,
// MpiAllreduceProbe): the pairwise measurements ("# pair" lines, pair_results.h) and the nodes
// its reachability gate left out ("# excluded" lines, sweep_gate.h). Parsed once per run
// (cached in the run's facts), whatever the probe's status: a sweep that did not complete
// still names the nodes its gate or blame pass found, and the workers that died of a resource.
// Pure: the run's raw outputs in.
#pragma once

#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/isolation/isolation_record.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/mpi_sweep/step_deaths.h"
#include "probes/mpi_sweep/sweep_gate.h"

namespace gpuconform::mpi_sweep {

const std::vector<PairResult>& ReadPairResults(const ClusterRaw& raw);
const std::vector<ExcludedNode>& ReadExcludedNodes(const ClusterRaw& raw);
// The workers that died of an exhausted resource of their node ("# worker-died" and "# limits"
// lines, step_deaths.h), classified; none in a table from before those lines.
const std::vector<resource_limits::ClassifiedDeath>& ReadSweepDeaths(const ClusterRaw& raw);

// cluster/isolation.txt (MpiIsolationProbe) read and replayed once per run: the record and the
// findings its rounds give; an error where the probe gave no output or the record is damaged.
struct IsolationFacts {
  isolation::IsolationRecord record;
  std::vector<isolation::Finding> findings;
};
const Result<IsolationFacts>& ReadIsolation(const ClusterRaw& raw);

}  // namespace gpuconform::mpi_sweep
