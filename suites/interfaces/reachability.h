// Fabric reachability: can every node open a TCP connection to every other node's address
// on the fabric interface (nccl.socket_ifname)? A subnet can be right on every node and a
// firewall, a missing route or a dead switch port still cut one pair off; NCCL's bootstrap
// and its socket transport then hang at init. Parse and check are pure.
// reach.txt, one node's view (written by the probe in reachability_probe.h):
//   fabric-reach version=1 node=node1 ifname=ens1 addr=10.20.0.1 port=40123
//   reach to=node2 addr=10.20.0.2:40111 result=ok ms=0.4
//   reach to=node3 addr=10.20.0.3:40999 result=failed ms=3000.0 error="No route to host"
//   fabric-reach version=1 node=node1 skipped="why"            (nothing to test)
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/result.h"
#include "harness/verdict.h"

namespace gpuconform::interfaces {

inline constexpr char kFabricReachable[] = "FabricReachable";

struct ReachAttempt {
  std::string to;       // node
  std::string address;  // "10.20.0.2:40111"
  bool ok = false;
  double ms = 0;
  std::string error;
};

struct NodeReach {
  std::string node;
  std::string ifname;
  std::string address;  // this node's fabric address; empty when it has none
  std::string skipped;  // why nothing was tested, when nothing was
  std::string problem;  // why this node could not listen
  std::vector<ReachAttempt> attempts;
};

Result<NodeReach> ParseReach(const std::string& text, const std::string& origin);

// Cluster: every ordered pair of nodes connected. `nodes` holds each node's view or why
// there is none.
CheckResult CheckFabricReachable(const std::map<std::string, Result<NodeReach>>& nodes, const Profile& profile);

}  // namespace gpuconform::interfaces
