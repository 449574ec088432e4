// A node's network interfaces: `ip -o link show` with the addresses of `ip -o addr show`
// merged in (iproute_parse.h), parsed once per run, or why they could not be read. Pure: raw
// outputs in.
#pragma once

#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/reason_code.h"
#include "harness/result.h"
#include "probes/iproute/iproute_parse.h"

namespace gpuconform::iproute {

// The node's interfaces; the error is the probe's detail where `ip` gave no output, else the
// parser's (naming the file and line).
Result<std::vector<Interface>> ReadInterfaces(const ClusterRaw& raw, const std::string& node);
// The reason code of ReadInterfaces' error: the probe's own status where `ip` did not give its
// output (missing, hung, failed), "unparseable" where it did and the output could not be read.
ReasonCode InterfacesUnreadCode(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::iproute
