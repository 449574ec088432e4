// The nccl-topo-file probe: the static NCCL topology file that NCCL_TOPO_FILE names, copied as
// is (NcclTopoFileOutput); nccl_topo_parse.h reads it. Its snapshot
// file name is part of the snapshot layout v1 contract.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::nccl_topo {

ProbeSpec NcclTopoFile();  // nodes/<h>/nccl-topo-file.xml  the file $NCCL_TOPO_FILE names (built in)

// The static NCCL topology file RunOptions::nccl_topo_file (NCCL_TOPO_FILE) names, copied as is. kAbsent when the
// variable is not set (NCCL then detects the topology itself); kFailed naming the path
// when the file cannot be read or is far larger than any topology.
RawOutput NcclTopoFileOutput(const LiveContext& context);

}  // namespace gpuconform::nccl_topo
