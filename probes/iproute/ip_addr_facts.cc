#include "probes/iproute/ip_addr_facts.h"

#include "facts/read_support.h"
#include "probes/iproute/iproute_probes.h"

namespace gpuconform::iproute {

const Result<std::vector<Interface>>& ReadIpAddr(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<std::vector<Interface>>>(
      "ip-addr", node, [&] { return facts::ParseOutput(raw.NodeOutput(node, IpAddrProbe().id), ParseIpAddr); });
}

}  // namespace gpuconform::iproute
