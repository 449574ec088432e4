// Typed reader of a node's GPUDirect RDMA availability (gpudirect.txt, GpuDirectProbe), parsed
// once per run. Pure: the run's raw outputs in; an error names the node and the file.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/gpudirect/gpudirect_parse.h"

namespace gpuconform::gpudirect {

const Result<GpuDirectReport>& ReadGpuDirect(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::gpudirect
