// The fabric reachability probe's output (reachability_probe.h), one node's view: whether it
// opened a TCP connection to every other node's address on the fabric interface
// (nccl.socket_ifname). Parse is pure: text in, the node's attempts out, or an error naming
// origin and line. fabric-reach.txt:
//   fabric-reach version=1 node=node1 ifname=ens1 addr=10.20.0.1 port=40123
//   reach to=node2 addr=10.20.0.2:40111 result=ok ms=0.4
//   reach to=node3 addr=10.20.0.3:40999 result=failed ms=3000.0 error="No route to host"
//   fabric-reach version=1 node=node1 skipped="why"            (nothing to test)
#pragma once

#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::fabric_reach {

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

}  // namespace gpuconform::fabric_reach
