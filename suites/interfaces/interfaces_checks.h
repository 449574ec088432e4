// Interfaces checks: is the fabric interface NCCL and MPI must use (nccl.socket_ifname)
// there, up and addressed on every node, on one subnet across nodes, and kept apart from
// the management interfaces that must never carry collectives (nccl.forbidden_ifnames)?
// Works without GPUs. Pure: each node's interfaces (`ip -o link/addr`, read by
// probes/iproute/iproute_facts.h), already read, + profile in, judgements out. A profile that
// names no fabric interface (or, for ForbiddenInterfacesNotFabric, forbids none) makes a check
// inapplicable: the suite skips it before reading anything (FabricSkipReason,
// ForbiddenSkipReason). The cluster checks report the nodes whose interfaces could not be read.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/node_facts.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/iproute/iproute_parse.h"

namespace gpuconform::interfaces {

using namespace gpuconform::iproute;

inline constexpr char kSuite[] = "Interfaces";

// Why the fabric checks (FabricInterfaceUp, FabricSubnetShared, FabricMtuConsistent) do not
// apply: the profile names no fabric socket interface. nullopt when they apply.
std::optional<std::string> FabricSkipReason(const Profile& profile);
// Why ForbiddenInterfacesNotFabric does not apply: the profile forbids no interface.
std::optional<std::string> ForbiddenSkipReason(const Profile& profile);

// Per node: nccl.socket_ifname exists, is up and has an IPv4 address.
GPUCONFORM_CHECK_NAME(FabricInterfaceUp);
CheckResult CheckFabricInterfaceUp(const std::string& node, const std::vector<Interface>& interfaces,
                                   const Profile& profile);
// Per node: each forbidden interface is not the fabric interface and shares no subnet with it.
GPUCONFORM_CHECK_NAME(ForbiddenInterfacesNotFabric);
CheckResult CheckForbiddenInterfacesNotFabric(const std::string& node, const std::vector<Interface>& interfaces,
                                              const Profile& profile);
// Cluster: every node's fabric address is in one subnet, and no two nodes share an address.
// `nodes` holds each node's interfaces, and why for the nodes whose could not be read.
GPUCONFORM_CHECK_NAME(FabricSubnetShared);
CheckResult CheckFabricSubnetShared(const NodeFacts<std::vector<Interface>>& nodes, const Profile& profile);

// Cluster: the fabric interface (nccl.socket_ifname) and every IPoIB interface have one MTU
// on all nodes: nccl.mtu where the profile sets it, else the most common value. A mismatched
// MTU drops or fragments large frames: collectives hang or crawl with no error.
GPUCONFORM_CHECK_NAME(FabricMtuConsistent);
CheckResult CheckFabricMtuConsistent(const NodeFacts<std::vector<Interface>>& nodes, const Profile& profile);

}  // namespace gpuconform::interfaces
