// Interfaces suite glue: the `ip -o` probes and the suite's registration.
#include "harness/suite_registry.h"
#include "suites/interfaces/interfaces_checks.h"
#include "probes/iproute/iproute_parse.h"
#include "probes/iproute/iproute_probes.h"
#include "suites/interfaces/reachability.h"
#include "probes/fabric_reach/reachability_probe.h"

namespace gpuconform::interfaces {

using namespace gpuconform::fabric_reach;
using namespace gpuconform::iproute;

namespace {

ProbeSpec ReachProbe() { return CollectiveProbe("fabric-reach", "fabric-reach.txt", ProbeFabricReach); }

Result<NodeReach> ReadReach(const ClusterRaw& raw, const std::string& node) {
  const RawOutput out = raw.NodeOutput(node, ReachProbe().id);
  if (out.status == ProbeStatus::kAbsent) return Error{node + ": no fabric-reach.txt in the snapshot"};
  if (!out.ok()) return Error{out.detail.empty() ? node + ": fabric-reach.txt " + ProbeStatusName(out.status) : out.detail};
  return ParseReach(out.text, node + "/fabric-reach.txt");
}

Result<std::vector<Interface>> ReadNode(const ClusterRaw& raw, const std::string& node) {
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

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::map<std::string, Result<std::vector<Interface>>> nodes;
  std::vector<CheckResult> up;
  std::vector<CheckResult> forbidden;
  for (const auto& node : context.raw.nodes) {
    auto interfaces = ReadNode(context.raw, node);
    if (interfaces) {
      up.push_back(CheckFabricInterfaceUp(node, *interfaces, context.profile));
      forbidden.push_back(CheckForbiddenInterfacesNotFabric(node, *interfaces, context.profile));
    } else {
      // The probe's own status when `ip` did not give its output (missing, hung, failed);
      // unparseable when it did and the output could not be read.
      const RawOutput link = context.raw.NodeOutput(node, IpLinkProbe().id);
      const RawOutput addr = context.raw.NodeOutput(node, IpAddrProbe().id);
      const ReasonCode code = !link.ok()   ? ProbeStatusReason(link.status)
                              : !addr.ok() ? ProbeStatusReason(addr.status)
                                           : ReasonCode("unparseable");
      auto unavailable = InterfacesUnavailable(node, code, interfaces.error(), context.profile);
      up.push_back(unavailable[0]);
      forbidden.push_back(unavailable[1]);
    }
    nodes.emplace(node, std::move(interfaces));
  }
  std::vector<CheckResult> results = std::move(up);
  results.push_back(CheckFabricSubnetShared(nodes, context.profile));
  results.push_back(CheckFabricMtuConsistent(nodes, context.profile));
  std::map<std::string, Result<NodeReach>> reach;
  for (const auto& node : context.raw.nodes) reach.emplace(node, ReadReach(context.raw, node));
  results.push_back(CheckFabricReachable(reach, context.profile));
  results.insert(results.end(), forbidden.begin(), forbidden.end());
  return results;
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "the fabric interface (nccl.socket_ifname) is up, addressed, on one subnet with one MTU; eth0 is kept apart",
    .checks = {
        {kFabricInterfaceUp, "nccl.socket_ifname exists, is up and has an IPv4 address on every node", true},
        {kFabricSubnetShared, "every node's fabric address is in one subnet, none shared", false},
        {kFabricMtuConsistent,
         "the fabric interface and every IPoIB interface have one MTU on all nodes (nccl.mtu if set)", false},
        {kFabricReachable, "every node opens a TCP connection to every other node's fabric address", false},
        {kForbiddenInterfacesNotFabric, "the forbidden interfaces (eth0) are not the fabric and share no subnet with it",
         true},
    },
    .probes = {IpAddrProbe(), IpLinkProbe(), ReachProbe()},
    .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::interfaces
