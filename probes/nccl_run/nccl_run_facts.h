// Facts from gpuconform's NCCL run (nccl_run_probe.h), each parsed once per run (cached in the
// run's facts). Pure: the run's raw outputs in.
// - From its table (cluster/nccl-allreduce.txt): the node workers that died of an exhausted
//   resource of their node ("# worker-died" and "# limits" lines, nccl_worker_death.h),
//   classified; none in a table from before those lines. Whatever the probe's status: a run
//   that failed still names its dead worker.
// - cluster/nccl-collectives.txt's tables (nccl_run_records.h); an error is the probe's own
//   detail where the output was not obtained, else the parser's naming origin and line.
// - cluster/nccl-init.txt's node lines, whatever the probe's status (a node whose init failed
//   says so in its line).
#pragma once

#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/nccl_run/nccl_run_records.h"
#include "probes/resource_limits/death_verdicts.h"

namespace gpuconform::nccl_run {

// Each named "the NCCL worker on NODE"; own_check is the suite's to set.
const std::vector<resource_limits::ClassifiedDeath>& ReadNcclRunDeaths(const ClusterRaw& raw);

const Result<NcclCollectiveResults>& ReadNcclCollectives(const ClusterRaw& raw);

const Result<std::vector<NodeInit>>& ReadNcclInit(const ClusterRaw& raw);

}  // namespace gpuconform::nccl_run
