// The cluster/nccl-debug.log probe: an NCCL_DEBUG=INFO log of a multi-node run. NcclTransport
// judges it; AllreduceBandwidth cites it when a bandwidth floor fails. Live, it is the file
// RunOptions::nccl_log names (GPUCONFORM_NCCL_LOG, an operator's run), read on rank 0; unset,
// it is the log of gpuconform's own NCCL run (nccl_run_probe.h), which says why where NCCL
// cannot run.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::nccl_log {

ProbeSpec DebugLogProbe();

}  // namespace gpuconform::nccl_log
