// The cluster/nccl-debug.log probe: an NCCL_DEBUG=INFO log of a multi-node run. NcclTransport
// judges it; AllreduceBandwidth cites it when a bandwidth floor fails. Live, it is the file
// GPUCONFORM_NCCL_LOG names, read on rank 0; unset, the probe reports it missing.
#pragma once

#include "harness/probe.h"

namespace gpuconform::nccl_transport {

inline constexpr char kLogEnvironment[] = "GPUCONFORM_NCCL_LOG";

ProbeSpec DebugLogProbe();

}  // namespace gpuconform::nccl_transport
