// Facts from gpuconform's NCCL run's table (cluster/nccl-allreduce.txt, NcclAllreduceProbe):
// the node workers that died of an exhausted resource of their node ("# worker-died" and
// "# limits" lines, nccl_worker_death.h), classified; none in a table from before those lines.
// Parsed once per run (cached in the run's facts), whatever the probe's status: a run that
// failed still names its dead worker. Pure: the run's raw outputs in.
#pragma once

#include <vector>

#include "harness/core/cluster_raw.h"
#include "probes/resource_limits/death_verdicts.h"

namespace gpuconform::nccl_run {

// Each named "the NCCL worker on NODE"; own_check is the suite's to set.
const std::vector<resource_limits::ClassifiedDeath>& ReadNcclRunDeaths(const ClusterRaw& raw);

}  // namespace gpuconform::nccl_run
