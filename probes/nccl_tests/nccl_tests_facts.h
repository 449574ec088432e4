// Typed reader of an allreduce sweep in nccl-tests' all_reduce_perf format, from a cluster
// output: gpuconform's own NCCL run, the MPI backend's sweep, or an operator's nccl-tests
// output. Parsed once per run (cached in the run's facts) however many checks judge it.
// Pure: the run's raw outputs in. An error is the probe's own detail where the output was not
// obtained (the probe's RawOutput says how), else the parser's error naming origin and line.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/nccl_tests/bandwidth_table.h"

namespace gpuconform::nccl_tests {

// The table of the cluster output of probe `probe_id` (ParseNcclTestsOutput's run to judge).
const Result<BandwidthTable>& ReadBandwidthTable(const ClusterRaw& raw, const std::string& probe_id);

}  // namespace gpuconform::nccl_tests
