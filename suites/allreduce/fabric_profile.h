// The profile's `fabric:` section, owned by the AllreduceBandwidth suite that reads it: the
// fabric's declared bandwidth per node, the efficiency an allreduce must reach of it, and the
// fraction of the fastest pair below which the MPI sweep's blame calls a pair slow. Absent:
// efficiency is not judged and the blame uses its default fraction.
#pragma once

#include <string>

namespace gpuconform::allreduce {

// The fabric as declared (datasheet or measurement): what an allreduce could reach. For a
// ring, each node moves 2(N-1)/N x bytes, so busbw is bounded by one node's fabric bandwidth;
// efficiency = measured busbw / that bound.
struct FabricExpectation {
  static constexpr char kKey[] = "fabric";
  double node_bandwidth_gbit_per_s = 0;             // per node, all rails together
  double allreduce_efficiency_floor_fraction = 0;   // 0: efficiency is recorded, not judged
  // The MPI sweep's blame: a pair of nodes below this fraction of the fastest pair is slow.
  double slow_pair_fraction = 0.5;
  std::string source;
};

}  // namespace gpuconform::allreduce
