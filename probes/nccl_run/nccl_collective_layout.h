// What one GPU of the NCCL run sends and must receive for one collective (allreduce, or one of
// probes/allreduce_sweep/collectives.h: alltoall, allgather, reduce_scatter), as equal blocks
// whose values say sender and slot, so the worker (nccl_worker.h) fills and checks every
// element with the same expected values as the MPI side (collective_measure.h).
// Sizes follow nccl-tests (collectives.h): S bytes is allreduce's buffer, alltoall's whole send
// buffer, allgather's gathered output and reduce_scatter's reduced input.
// Contract: pure.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace gpuconform::nccl_run {

// `count` blocks of `floats` each; block i holds value(i) in every element.
struct Blocks {
  std::size_t count = 1;
  std::size_t floats = 0;
  std::function<float(int)> value;

  std::size_t TotalFloats() const { return count * floats; }
};

struct CollectiveLayout {
  Blocks send;
  Blocks receive;
};

// The layout of `collective` ("" or "allreduce" for allreduce) for rank `rank` of `nranks`, at
// S = `size_bytes` (a whole number of floats per rank: CollectiveSizeBytes); nullopt for an
// unknown collective.
std::optional<CollectiveLayout> LayoutOf(const std::string& collective, int rank, int nranks, long long size_bytes);

}  // namespace gpuconform::nccl_run
