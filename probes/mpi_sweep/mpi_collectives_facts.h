// Typed reader of the MPI collectives probe's file (cluster/mpi-collectives.txt,
// MpiCollectivesProbe): each collective's table, split at its marker line and parsed by the
// nccl-tests parser (collective_tables.h). Parsed once per run (cached in the run's facts)
// however many checks judge it.
// Pure: the run's raw outputs in. An error is the probe's own detail where the output was not
// obtained (the probe's RawOutput says how), else the parser's error naming origin and line.
#pragma once

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/mpi_sweep/collective_tables.h"

namespace gpuconform::mpi_sweep {

const Result<CollectiveTables>& ReadCollectiveTables(const ClusterRaw& raw);

}  // namespace gpuconform::mpi_sweep
