// The MPI backend of AllreduceBandwidth: MPI_Allreduce (float, sum) on host buffers over
// the world, swept over message sizes, timed and checked — what runs on nodes without GPUs
// (the project's local cluster) and measures the host path of any cluster.
// Contract: a collective probe (every rank calls it). It prints its table in nccl-tests'
// all_reduce_perf format, so one parser and one judge serve both tools. It times the
// blocking MPI_Allreduce, like applications and IMB-MPI1. Each size has a deadline
// (GPUCONFORM_COLLECTIVE_TIMEOUT_S, default 60 s): when a rank stops progressing (SIGSTOP,
// a dead link), rank 0 reports the stall as an error and the job ends, instead of hanging.
#pragma once

#include <vector>

#include "harness/gather.h"
#include "harness/probe.h"

namespace gpuconform::mpi_sweep {

// cluster/mpi-allreduce.txt
ProbeSpec MpiAllreduceProbe();

// Sizes to measure (sweep.h): doubling from 1 MiB up to the largest floor size the profile
// names, capped at 1 GiB (host memory) and by options.allreduce_max_bytes when positive.
std::vector<long long> MpiSweepSizes(const Profile* profile, const RunOptions& options);

}  // namespace gpuconform::mpi_sweep
