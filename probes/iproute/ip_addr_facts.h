// Typed reader of a node's `ip -o addr show` (IpAddrProbe), parsed once per run (cached in the
// run's facts): its interfaces with their addresses. Pure: the run's raw outputs in. An error
// is the probe's own detail where `ip` gave no output, else the parser's naming file and line.
#pragma once

#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/result.h"
#include "probes/iproute/iproute_parse.h"

namespace gpuconform::iproute {

const Result<std::vector<Interface>>& ReadIpAddr(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::iproute
