// Typed readers of a node's `ip` outputs, each parsed once per run (cached in the run's facts),
// or why they could not be read: its addresses (`ip -o addr show` alone, what Launch compares
// MASTER_ADDR with) and its interfaces (`ip -o link show` with those addresses merged in, what
// Interfaces judges). Pure: raw outputs in.
#pragma once

#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/reason_code.h"
#include "harness/util/result.h"
#include "probes/iproute/iproute_parse.h"

namespace gpuconform::iproute {

// The node's interfaces with their addresses from `ip -o addr show` alone; the error is the
// probe's own detail where `ip` gave no output, else the parser's naming file and line.
const Result<std::vector<Interface>>& ReadIpAddr(const ClusterRaw& raw, const std::string& node);

// The node's interfaces; the error is the probe's detail where `ip` gave no output, else the
// parser's (naming the file and line).
const Result<std::vector<Interface>>& ReadInterfaces(const ClusterRaw& raw, const std::string& node);
// The reason code of ReadInterfaces' error: the probe's own status where `ip` did not give its
// output (missing, hung, failed), "unparseable" where it did and the output could not be read.
ReasonCode InterfacesUnreadCode(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::iproute
