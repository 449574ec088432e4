// Fabric reachability: can every node open a TCP connection to every other node's address
// on the fabric interface (nccl.socket_ifname)? A subnet can be right on every node and a
// firewall, a missing route or a dead switch port still cut one pair off; NCCL's bootstrap
// and its socket transport then hang at init. Pure: each node's view (fabric-reach.txt, read
// by probes/fabric_reach/fabric_reach_facts.h) or why there is none, + profile in. Without a
// fabric interface in the profile the check does not apply (ReachabilitySkipReason): the suite
// skips it before reading anything.
#pragma once

#include <optional>
#include <string>

#include "harness/core/node_facts.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/fabric_reach/fabric_reach_parse.h"

namespace gpuconform::interfaces {

using fabric_reach::NodeReach;

GPUCONFORM_CHECK_NAME(FabricReachable);

// Why FabricReachable does not apply: the profile names no fabric interface.
std::optional<std::string> ReachabilitySkipReason(const Profile& profile);

// Cluster: every ordered pair of nodes connected. A node whose view could not be read is
// untested, as is one that could not listen or test: an error where nothing failed.
CheckResult CheckFabricReachable(const NodeFacts<NodeReach>& nodes, const Profile& profile);

}  // namespace gpuconform::interfaces
