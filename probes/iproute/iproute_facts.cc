#include "probes/iproute/iproute_facts.h"

#include "probes/iproute/iproute_probes.h"

namespace gpuconform::iproute {

namespace {

Result<std::vector<Interface>> ParseInterfaces(const ClusterRaw& raw, const std::string& node) {
  const RawOutput link = raw.NodeOutput(node, IpLinkProbe().id);
  const RawOutput addr = raw.NodeOutput(node, IpAddrProbe().id);
  if (!link.ok()) return Error{link.detail};
  if (!addr.ok()) return Error{addr.detail};
  auto links = ParseIpLink(link.text, link.origin);
  if (!links) return Error{links.error()};
  auto addresses = ParseIpAddr(addr.text, addr.origin);
  if (!addresses) return Error{addresses.error()};
  return MergeLinksAndAddresses(std::move(*links), *addresses);
}

}  // namespace

Result<std::vector<Interface>> ReadInterfaces(const ClusterRaw& raw, const std::string& node) {
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
