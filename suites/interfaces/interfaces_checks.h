// Interfaces checks: is the fabric interface NCCL and MPI must use (nccl.socket_ifname)
// there, up and addressed on every node, on one subnet across nodes, and kept apart from
// the management interfaces that must never carry collectives (nccl.forbidden_ifnames)?
// Works without GPUs. Pure: parsed `ip -o link/addr` output + profile in, CheckResults out.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/result.h"
#include "harness/verdict.h"
#include "probes/iproute/iproute_parse.h"

namespace gpuconform::interfaces {

using namespace gpuconform::iproute;

inline constexpr char kSuite[] = "Interfaces";

// Per node: nccl.socket_ifname exists, is up and has an IPv4 address.
inline constexpr char kFabricInterfaceUp[] = "FabricInterfaceUp";
CheckResult CheckFabricInterfaceUp(const std::string& node, const std::vector<Interface>& interfaces,
                                   const Profile& profile);
// Per node: each forbidden interface is not the fabric interface and shares no subnet with it.
inline constexpr char kForbiddenInterfacesNotFabric[] = "ForbiddenInterfacesNotFabric";
CheckResult CheckForbiddenInterfacesNotFabric(const std::string& node, const std::vector<Interface>& interfaces,
                                              const Profile& profile);
// Cluster: every node's fabric address is in one subnet, and no two nodes share an address.
// `nodes` holds each node's interfaces or why they could not be read.
inline constexpr char kFabricSubnetShared[] = "FabricSubnetShared";
CheckResult CheckFabricSubnetShared(const std::map<std::string, Result<std::vector<Interface>>>& nodes,
                                    const Profile& profile);

// Cluster: the fabric interface (nccl.socket_ifname) and every IPoIB interface have one MTU
// on all nodes: nccl.mtu where the profile sets it, else the most common value. A mismatched
// MTU drops or fragments large frames: collectives hang or crawl with no error.
inline constexpr char kFabricMtuConsistent[] = "FabricMtuConsistent";
CheckResult CheckFabricMtuConsistent(const std::map<std::string, Result<std::vector<Interface>>>& nodes,
                                     const Profile& profile);

// The per-node checks when a node's interfaces could not be read.
std::vector<CheckResult> InterfacesUnavailable(const std::string& node, ReasonCode code,
                                               const std::string& problem, const Profile& profile);

}  // namespace gpuconform::interfaces
