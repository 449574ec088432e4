// The MPI backend of AllreduceBandwidth: MPI_Allreduce (float, sum) on host buffers over
// the world, swept over message sizes, timed and checked — what runs on nodes without GPUs
// (the project's local cluster) and measures the host path of any cluster.
// Contract: a collective probe (every rank calls it). The measurement runs in its own step
// (sweep_step.h, mpi_sweep_worker.h), never in the run's processes: Open MPI ends its whole
// world at the first peer it cannot reach, and that must end only the measurement. The step
// includes only the nodes that the fabric reachability mesh shows can all reach each other
// (sweep_gate.h); the nodes it leaves out are "# excluded NODE WHY" lines of the table. The
// table is in nccl-tests' all_reduce_perf format, so one parser and one judge serve both
// tools. Each collective has a deadline (GPUCONFORM_COLLECTIVE_TIMEOUT_S, default 60 s); a
// step that dies, aborts or hangs is a kFailed output quoting what it printed, and the run
// and its report go on. A sweep that fails or falls below its floor is followed by the
// isolation (mpi_isolation.h), which replaces the neighbour-pair steps this probe ran after a
// failed sweep: those cost one step per node, in sequence.
#pragma once

#include <vector>

#include "harness/core/probe.h"
#include "harness/world/gather.h"

namespace gpuconform::mpi_sweep {

// cluster/mpi-allreduce.txt
ProbeSpec MpiAllreduceProbe();
// cluster/isolation.txt: the isolation that follows the sweep (mpi_isolation.h); its first
// round is the sweep itself where the sweep ran on every node, so a healthy run records one
// round and runs no other step. Measured together with the sweep, once per run.
ProbeSpec MpiIsolationProbe();

// Sizes to measure: the latency band (8 B to 64 KiB, latency_profile.h), then (sweep.h)
// doubling from 1 MiB up to the largest floor size the profile names, capped at 1 GiB (host
// memory) and by options.allreduce_max_bytes when positive.
std::vector<long long> MpiSweepSizes(const Profile* profile, const RunOptions& options);

}  // namespace gpuconform::mpi_sweep
