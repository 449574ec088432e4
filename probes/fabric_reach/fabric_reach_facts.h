// A node's fabric reachability (fabric-reach.txt, fabric_reach_parse.h), parsed once per run,
// or why there is none, naming the node and the file. Pure: raw outputs in.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/fabric_reach/fabric_reach_parse.h"

namespace gpuconform::fabric_reach {

const Result<NodeReach>& ReadReach(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::fabric_reach
