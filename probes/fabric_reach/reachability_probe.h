// The fabric reachability probe: a collective. The lowest rank on each node listens on its
// fabric address (nccl.socket_ifname, any free port); the addresses are exchanged; each
// node then connects to every other node's listener, with a deadline, and records what
// happened. Output: reach.txt, described in reachability.h.
#pragma once

#include "harness/gather.h"
#include "harness/probe.h"

namespace gpuconform::fabric_reach {

RawOutput ProbeFabricReach(const CollectiveContext& context);

}  // namespace gpuconform::fabric_reach
