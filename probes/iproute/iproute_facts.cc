#include "probes/iproute/iproute_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/iproute/iproute_probes.h"

namespace gpuconform::iproute {

const Result<std::vector<Interface>>& ReadIpAddr(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<std::vector<Interface>>>(
      "ip-addr", node, [&] { return facts::ParseOutput(raw.NodeOutput(node, IpAddrProbe().id), ParseIpAddr); });
}

namespace {

// The addresses come from ReadIpAddr, so `ip -o addr show` is parsed once per run for both.
Result<std::vector<Interface>> ParseInterfaces(const ClusterRaw& raw, const std::string& node) {
  const RawOutput link = raw.NodeOutput(node, IpLinkProbe().id);
  if (!link.ok()) return Error{link.detail};
  const Result<std::vector<Interface>>& addresses = ReadIpAddr(raw, node);
  if (!addresses) return Error{addresses.error()};
  auto links = ParseIpLink(link.text, link.origin);
  if (!links) return Error{links.error()};
  return MergeLinksAndAddresses(std::move(*links), *addresses);
}

}  // namespace

const Result<std::vector<Interface>>& ReadInterfaces(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<std::vector<Interface>>>("interfaces", node, [&] { return ParseInterfaces(raw, node); });
}

ReasonCode InterfacesUnreadCode(const ClusterRaw& raw, const std::string& node) {
  const RawOutput link = raw.NodeOutput(node, IpLinkProbe().id);
  if (!link.ok()) return ProbeStatusReason(link.status);
  const RawOutput addr = raw.NodeOutput(node, IpAddrProbe().id);
  if (!addr.ok()) return ProbeStatusReason(addr.status);
  return "unparseable";
}

}  // namespace gpuconform::iproute
