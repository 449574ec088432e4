// Typed reader of a node's NVLink error counters (nvidia-smi-nvlink-e.txt, NvlinkErrorsProbe),
// parsed once per run. Pure: the run's raw outputs in; an error names the node and the file.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/nvidia_smi/nvlink_errors_parse.h"

namespace gpuconform::nvidia_smi {

const Result<NvlinkErrorReport>& ReadNvlinkErrors(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::nvidia_smi
