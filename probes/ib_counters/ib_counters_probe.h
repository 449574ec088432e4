// The ib-counters probe: every RDMA port's error counters from sysfs,
// /sys/class/infiniband/<dev>/ports/<p>/counters/<name> (GPUCONFORM_SYSFS_ROOT stands in for
// /sys in tests), as record lines (ib_counters_parse.h). Cheap and passive: fit for the Slurm
// health check. A node without RDMA devices answers with none (veth has no counters).
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::ib_counters {

RawOutput IbCountersOutput(const LiveContext& context);

// nodes/<h>/ib-counters.txt
const ProbeSpec& IbCountersProbe();

}  // namespace gpuconform::ib_counters
