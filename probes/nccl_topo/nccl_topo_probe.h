// The nccl-topo.xml probe: the topology NCCL detected on a node. Live, it is the file NCCL
// dumped in gpuconform's own NCCL run (probes/nccl_run); where that did not run, the earlier
// dump or static file that NCCL_TOPO_DUMP_FILE or NCCL_TOPO_FILE names. A collective: each
// rank reads its own node's file, and the harness keeps the lowest rank's answer per node.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::nccl_topo {

// How an operator obtains the file, for messages where it is missing.
inline constexpr char kHowToProduce[] =
    "gpuconform's own NCCL run dumps it where NCCL and GPUs exist; otherwise run any NCCL job on the node with NCCL_TOPO_DUMP_FILE=<file> and run gpuconform with the same "
    "NCCL_TOPO_DUMP_FILE (or NCCL_TOPO_FILE for a static file NCCL is given), or replay a snapshot holding "
    "nodes/<host>/nccl-topo.xml";

ProbeSpec TopologyProbe();  // nodes/<h>/nccl-topo.xml

}  // namespace gpuconform::nccl_topo
