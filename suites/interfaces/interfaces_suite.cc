// Interfaces suite glue: each node's interfaces (probes/iproute/iproute_facts.h) and fabric
// reachability (probes/fabric_reach/fabric_reach_facts.h), read before the checks and skipped
// before any read where the profile makes a check inapplicable; and the registration.
#include "harness/core/suite_registry.h"
#include "probes/fabric_reach/fabric_reach_facts.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "probes/iproute/iproute_facts.h"
#include "probes/iproute/iproute_probes.h"
#include "suites/interfaces/interfaces_checks.h"
#include "suites/interfaces/reachability_checks.h"

namespace gpuconform::interfaces {

using namespace gpuconform::fabric_reach;
using namespace gpuconform::iproute;

namespace {

using SkipReason = std::optional<std::string> (*)(const Profile&);
using NodeCheck = CheckResult (*)(const std::string&, const std::vector<Interface>&, const Profile&);
using ClusterCheck = CheckResult (*)(const NodeFacts<std::vector<Interface>>&, const Profile&);

CheckApplicability Unless(SkipReason reason) {
  return [reason](const SuiteContext& context, const std::string&) { return reason(context.profile); };
}

// A per-node check of the node's interfaces: where they could not be read, an error with the
// probe's own status (missing, hung, failed), or unparseable where `ip` answered.
CheckJudge OnNode(NodeCheck check) {
  return [check](const SuiteContext& context, const std::string& node) {
    const auto& interfaces = ReadInterfaces(context.raw, node);
    if (!interfaces) return Errored(InterfacesUnreadCode(context.raw, node), interfaces.error());
    return check(node, *interfaces, context.profile);
  };
}

// A cluster check of every node's interfaces.
CheckJudge OnCluster(ClusterCheck check) {
  return [check](const SuiteContext& context, const std::string&) {
    NodeFacts<std::vector<Interface>> nodes;
    for (const auto& node : context.raw.nodes) nodes.Add(node, ReadInterfaces(context.raw, node));
    return check(nodes, context.profile);
  };
}

CheckResult JudgeReachability(const SuiteContext& context, const std::string&) {
  NodeFacts<NodeReach> nodes;
  for (const auto& node : context.raw.nodes) nodes.Add(node, ReadReach(context.raw, node));
  return CheckFabricReachable(nodes, context.profile);
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "the fabric interface (nccl.socket_ifname) is up, addressed, on one subnet with one MTU; eth0 is kept apart",
    .checks = {
        {.name = kFabricInterfaceUp,
         .requirement = "nccl.socket_ifname exists, is up and has an IPv4 address on every node",
         .per_node = true,
         .judge = OnNode(CheckFabricInterfaceUp),
         .not_applicable = Unless(FabricSkipReason)},
        {.name = kFabricSubnetShared,
         .requirement = "every node's fabric address is in one subnet, none shared",
         .judge = OnCluster(CheckFabricSubnetShared),
         .not_applicable = Unless(FabricSkipReason)},
        {.name = kFabricMtuConsistent,
         .requirement = "the fabric interface and every IPoIB interface have one MTU on all nodes (nccl.mtu if set)",
         .judge = OnCluster(CheckFabricMtuConsistent),
         .not_applicable = Unless(FabricSkipReason)},
        {.name = kFabricReachable,
         .requirement = "every node opens a TCP connection to every other node's fabric address",
         .judge = JudgeReachability,
         .not_applicable = Unless(ReachabilitySkipReason)},
        {.name = kForbiddenInterfacesNotFabric,
         .requirement = "the forbidden interfaces (eth0) are not the fabric and share no subnet with it",
         .per_node = true,
         .judge = OnNode(CheckForbiddenInterfacesNotFabric),
         .not_applicable = Unless(ForbiddenSkipReason)},
    },
    .probes = {IpAddrProbe(), IpLinkProbe(), FabricReachProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::interfaces
