// Collectives judgement: MPI alltoall, allgather and reduce_scatter busbw against the profile's
// `collectives:` floors, and every element of every row correct. Pure: the tables already read
// (probes/mpi_sweep/mpi_collectives_facts.h) + profile in, one cluster-wide judgement out; the
// suite's glue skips or errs where the tables could not be read.
// Busbw is judged only at the floors' sizes for the table's node count, each rounded down to a
// whole number of floats per rank as the worker rounds it (collectives.h). A failure near the
// management NIC's rate says the collective probably ran on it; any other failure points at the
// cross-rail and spine links these collectives cross while allreduce rings stay inside a rail.
#pragma once

#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/mpi_sweep/collective_tables.h"

namespace gpuconform::collectives {

inline constexpr char kSuite[] = "Collectives";

GPUCONFORM_CHECK_NAME(MpiAlltoallBusbwAtFloors);
GPUCONFORM_CHECK_NAME(MpiAllgatherBusbwAtFloors);
GPUCONFORM_CHECK_NAME(MpiReduceScatterBusbwAtFloors);
GPUCONFORM_CHECK_NAME(MpiCollectivesCorrect);

// busbw of `collective` ("alltoall", ...) at each of its floors for the table's node count.
// Measurements: busbw at every size, with threshold and source at the judged ones.
CheckResult CheckCollectiveBusbwAtFloors(const std::string& collective, const mpi_sweep::CollectiveTables& tables,
                                         const Profile& profile);

// Every row of every table was checked and had no wrong elements.
CheckResult CheckCollectivesCorrect(const mpi_sweep::CollectiveTables& tables);

}  // namespace gpuconform::collectives
