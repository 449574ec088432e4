// The MPI sweep worker's measurement of the collectives beyond allreduce (collectives.h):
// MPI_Alltoall, MPI_Allgather and MPI_Reduce_scatter_block on host float buffers, blocking
// calls timed as the allreduce is (sweep_world.h: barrier, warm-ups, timed iterations, the
// slowest rank's mean), every element checked against what each rank sent. Rank 0 prints each
// collective's marker line and header (collective_tables.h), then each row as soon as it is
// measured, so a step that dies later still leaves them.
// Contract: a collective of the worker's world; every rank calls it with the same arguments.
#pragma once

#include <string>
#include <vector>

#include "probes/mpi_sweep/sweep_world.h"

namespace gpuconform::mpi_sweep {

// `collectives`: names FindCollective knows. Each size is rounded down to a whole number of
// floats per rank (CollectiveSizeBytes).
void MeasureCollectiveTables(const SweepWorld& world, const std::vector<std::string>& collectives,
                             const std::vector<long long>& sizes_bytes, int configured_iters);

}  // namespace gpuconform::mpi_sweep
