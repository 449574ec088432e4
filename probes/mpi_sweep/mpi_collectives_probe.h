// The MPI collectives beyond allreduce (collectives.h: alltoall, allgather, reduce_scatter) on
// host buffers over the world, at the sizes the profile's `collectives:` floors name, timed and
// checked: what the Collectives suite judges. Rail-optimised fabrics keep allreduce rings inside
// a rail, while alltoall and allgather cross rails through the spine, so these see faults an
// allreduce does not.
// Contract: a collective probe (every rank calls it), active (it loads the fabric), so the
// health check never runs it. As the allreduce sweep (mpi_allreduce_probe.h), the measurement
// runs in its own step of the worker (`--collectives ...`, mpi_sweep_worker.h) on the nodes the
// shared fabric mesh's gate includes (sweep_run.h), with a deadline for each collective
// (GPUCONFORM_COLLECTIVE_TIMEOUT_S) and one for the step; a step that dies, aborts or hangs is a
// kFailed output quoting what it printed, with the tables it finished. One table per collective,
// after its marker line (collective_tables.h). No floors in the profile: nothing is measured.
#pragma once

#include <string>
#include <vector>

#include "harness/core/probe.h"
#include "harness/world/gather.h"

namespace gpuconform::mpi_sweep {

// cluster/mpi-collectives.txt
ProbeSpec MpiCollectivesProbe();

// The collectives the profile's `collectives:` section has floors for, in report order.
std::vector<std::string> CollectivesWithFloors(const Profile* profile);

// The floors' sizes, ascending, each once, capped at 1 GiB (host memory) and by
// options.allreduce_max_bytes when positive, as MpiSweepSizes caps the allreduce sweep.
std::vector<long long> MpiCollectiveSizes(const Profile* profile, const RunOptions& options);

}  // namespace gpuconform::mpi_sweep
