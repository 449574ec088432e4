// The libibverbs probe: nodes/<h>/ibverbs.txt (format in ibverbs_parse.h), read in-process
// from libibverbs.so.1, loaded with dlopen and never linked, so the binary runs where
// rdma-core is not installed. Contract: no library -> kToolMissing naming the node; a library
// that finds no device -> kOk with device_count=0, which the suite reports as "no RDMA
// device"; a device that cannot be opened or queried gets an error record, the rest go on.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::ibverbs {

RawOutput IbverbsOutput(const LiveContext& context);
const ProbeSpec& IbverbsProbe();  // id "ibverbs", file "ibverbs.txt", built in

}  // namespace gpuconform::ibverbs
