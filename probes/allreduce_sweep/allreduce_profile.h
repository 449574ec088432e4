// The profile's `allreduce:` section, owned by the allreduce sweep that sizes itself by it (and
// read by the AllreduceBandwidth suite, which judges busbw against it): a list of busbw floors,
// each for a node count and a message size, with its source. Absent: no floor, and the sweep
// stops at its smallest size.
#pragma once

#include <string>
#include <vector>

namespace gpuconform::allreduce_sweep {

struct AllreduceFloor {
  int nodes = 1;               // 1 = intra-node; N = across N nodes (or more)
  long long size_bytes = 0;    // judged at this message size
  double busbw_floor_gb_per_s = 0;
  std::string source;
};

// The section as a whole: its floors, in the profile's order (empty where it gives none).
struct AllreduceFloors {
  static constexpr char kKey[] = "allreduce";
  std::vector<AllreduceFloor> floors;
};

}  // namespace gpuconform::allreduce_sweep
