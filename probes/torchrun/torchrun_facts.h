// Typed reader of a node's Torchrun probe output (torchrun.txt, TorchrunProbe), parsed once per
// run (cached in the run's facts). Pure: the run's raw outputs in. An error leads with the node
// ("node3: ..."): the probe's own detail where the output was not obtained, else the parser's
// error naming node/torchrun.txt and the line.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/torchrun/torchrun_parse.h"

namespace gpuconform::torchrun {

const Result<NodeTorchrunReport>& ReadTorchrunReport(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::torchrun
