// The nccl-topo-file probe: the static NCCL topology file that NCCL_TOPO_FILE names, copied as
// is (harness/core/builtin_probes.h NcclTopoFileOutput); nccl_topo_parse.h reads it. Its snapshot
// file name is part of the snapshot layout v1 contract.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::nccl_topo {

ProbeSpec NcclTopoFile();  // nodes/<h>/nccl-topo-file.xml  the file $NCCL_TOPO_FILE names (built in)

}  // namespace gpuconform::nccl_topo
