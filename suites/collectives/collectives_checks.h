// Collectives judgement: alltoall, allgather and reduce_scatter busbw against the profile's floors
// (MPI on host buffers: `collectives:`; gpuconform's NCCL run on GPU buffers: `nccl_collectives:`),
// every element of every row correct, and the NCCL run's communicator init time against
// `nccl_init:`'s ceiling. Pure: the tables already read (probes/mpi_sweep/mpi_collectives_facts.h,
// probes/nccl_run/nccl_run_facts.h) + profile in, one cluster-wide judgement out; the suite's glue
// skips or errs where the tables could not be read.
// Busbw is judged only at the floors' sizes for the table's node count, each rounded down to a
// whole number of floats per rank as the worker rounds it (collectives.h). A failure near the
// management NIC's rate says the collective probably ran on it; any other failure points at the
// cross-rail and spine links these collectives cross while allreduce rings stay inside a rail.
#pragma once

#include <string>

#include <vector>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/mpi_sweep/collective_tables.h"
#include "probes/mpi_sweep/collectives_profile.h"
#include "probes/nccl_run/nccl_run_profile.h"
#include "probes/nccl_run/nccl_run_records.h"

namespace gpuconform::collectives {

inline constexpr char kSuite[] = "Collectives";

GPUCONFORM_CHECK_NAME(MpiAlltoallBusbwAtFloors);
GPUCONFORM_CHECK_NAME(MpiAllgatherBusbwAtFloors);
GPUCONFORM_CHECK_NAME(MpiReduceScatterBusbwAtFloors);
GPUCONFORM_CHECK_NAME(MpiCollectivesCorrect);
GPUCONFORM_CHECK_NAME(NcclAlltoallBusbwAtFloors);
GPUCONFORM_CHECK_NAME(NcclAllgatherBusbwAtFloors);
GPUCONFORM_CHECK_NAME(NcclReduceScatterBusbwAtFloors);
GPUCONFORM_CHECK_NAME(NcclCollectivesCorrect);
GPUCONFORM_CHECK_NAME(NcclInitWithinCeiling);

// Which run measured the tables, in the words of its messages.
struct CollectiveBackend {
  std::string run;      // "the MPI collectives step"
  std::string section;  // the profile section with its floors: "collectives"
  bool nccl = false;    // the NCCL run: NCCL's variables pin the fabric, not Open MPI's
};
const CollectiveBackend& MpiBackend();
const CollectiveBackend& NcclBackend();

// busbw of `collective` ("alltoall", ...) at each of `floors` (that collective's, from the
// backend's section) for the table's node count. Measurements: busbw at every size, with
// threshold and source at the judged ones.
CheckResult CheckCollectiveBusbwAtFloors(const std::string& collective,
                                         const std::vector<mpi_sweep::CollectiveFloor>& floors,
                                         const mpi_sweep::CollectiveTables& tables, const Profile& profile,
                                         const CollectiveBackend& backend);
// The MPI run's: the floors of the profile's `collectives:` section.
CheckResult CheckCollectiveBusbwAtFloors(const std::string& collective, const mpi_sweep::CollectiveTables& tables,
                                         const Profile& profile);

// Every row of every table was checked and had no wrong elements.
CheckResult CheckCollectivesCorrect(const mpi_sweep::CollectiveTables& tables,
                                    const CollectiveBackend& backend = MpiBackend());

// The slowest node's ncclCommInitRank time is at or under the ceiling: each node above it is a
// finding (nccl-init-slow), slowest first; a node whose init did not complete is an error where
// none is slow. Measurements: the slowest time against the ceiling, and each node's time.
CheckResult CheckNcclInitWithinCeiling(const std::vector<nccl_run::NodeInit>& nodes,
                                       const nccl_run::NcclInitCeiling& ceiling);

}  // namespace gpuconform::collectives
