// The profile's `collectives:` section, owned by the MPI collectives probe that sizes itself by
// it (mpi_collectives_probe.h) and read by the Collectives suite, which judges busbw against it:
// a list of busbw floors, each for one collective beyond allreduce (collectives.h: alltoall,
// allgather, reduce_scatter), a node count and a message size (nccl-tests' total bytes), with
// its source. Absent: no floor, and the probe is not run.
#pragma once

#include <string>
#include <vector>

namespace gpuconform::mpi_sweep {

struct CollectiveFloor {
  std::string collective;      // "alltoall", "allgather" or "reduce_scatter"
  int nodes = 1;               // judged on a table over this many nodes
  long long size_bytes = 0;    // judged at this message size (rounded down as the worker rounds it)
  double busbw_floor_gb_per_s = 0;
  std::string source;
};

// The section as a whole, in the profile's order (empty where it gives none).
struct CollectiveFloors {
  static constexpr char kKey[] = "collectives";
  std::vector<CollectiveFloor> floors;
};

// The floors of one collective, in the profile's order.
std::vector<CollectiveFloor> FloorsOf(const CollectiveFloors& section, const std::string& collective);

}  // namespace gpuconform::mpi_sweep
