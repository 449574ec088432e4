// The fabric reachability probe: a collective. The lowest rank on each node listens on its
// fabric address (nccl.socket_ifname, any free port); the addresses are exchanged; each
// node then connects to every other node's listener, with a deadline, and records what
// happened. Output: fabric-reach.txt, described in fabric_reach_parse.h.
// The same measurement is the gate of every measurement that crosses the fabric (the MPI
// sweep): it is taken once per run, by whichever asks first (all ranks ask in the same
// order), and remembered.
#pragma once

#include <string>
#include <vector>

#include "harness/core/probe.h"
#include "harness/world/gather.h"

namespace gpuconform::fabric_reach {

struct FailedConnection {
  std::string to;       // node
  std::string address;  // "10.20.0.3:40999"
  std::string error;    // the system's words
};

// This node's part of the mesh.
struct FabricMesh {
  RawOutput output;                        // reach.txt
  std::string ifname;                      // empty: the profile names no fabric interface, nothing tested
  std::string untestable;                  // why this node could not take part (no address, no listener)
  std::vector<FailedConnection> failures;  // this node's connections that failed
};

// One measurement (a collective).
FabricMesh MeasureFabricMesh(const CollectiveContext& context);
// The run's measurement: taken on first use, then the same answer (a collective on first use).
const FabricMesh& SharedFabricMesh(const CollectiveContext& context);

// The probe's collective: SharedFabricMesh's reach.txt.
RawOutput ProbeFabricReach(const CollectiveContext& context);
ProbeSpec FabricReachProbe();  // nodes/<h>/fabric-reach.txt, ProbeFabricReach

}  // namespace gpuconform::fabric_reach
