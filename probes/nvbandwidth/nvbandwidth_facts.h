// Typed reader of a node's nvbandwidth results (nvbandwidth_probes.h): nvbandwidth.json where
// the snapshot has it, else nvbandwidth.txt, parsed once per run. Pure: the run's raw outputs
// in; an error names the node and the file.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/nvbandwidth/nvbandwidth_parse.h"

namespace gpuconform::nvbandwidth {

const Result<NvbandwidthReport>& ReadNvbandwidth(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::nvbandwidth
