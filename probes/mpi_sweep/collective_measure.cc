#include "probes/mpi_sweep/collective_measure.h"

#include <algorithm>
#include <iostream>

#include "probes/allreduce_sweep/collectives.h"
#include "probes/mpi_sweep/collective_tables.h"

namespace gpuconform::mpi_sweep {

using namespace gpuconform::allreduce_sweep;

namespace {

// Elements of `received` that differ from `expected(slot)`, slot i holding elements
// [i * block, (i + 1) * block).
template <typename Expected>
long long WrongInBlocks(const std::vector<float>& received, std::size_t block, Expected expected) {
  long long wrong = 0;
  for (std::size_t i = 0; i < received.size(); ++i) wrong += received[i] != expected(static_cast<int>(i / block));
  return wrong;
}

// Every rank's buffers for one size: `block` floats per rank, sent and received as the
// collective defines.
SizeResult MeasureOne(const SweepWorld& world, const CollectiveDefinition& collective, long long size_bytes,
                      int configured_iters) {
  const std::size_t n = static_cast<std::size_t>(world.size);
  const std::size_t total = static_cast<std::size_t>(size_bytes) / sizeof(float);
  const std::size_t block = total / n;
  const int count = static_cast<int>(block);
  const std::string what = collective.mpi_call + " of " + std::to_string(size_bytes) + " B";
  std::vector<float> send;
  std::vector<float> receive;
  auto fill = [&](std::size_t elements, auto value_of_slot) {
    std::vector<float> buffer(elements);
    for (std::size_t i = 0; i < elements; ++i) buffer[i] = value_of_slot(static_cast<int>(i / block));
    return buffer;
  };
  if (collective.name == "alltoall") {
    // S is each rank's send buffer: block j goes to rank j.
    send = fill(total, [&](int to) { return AlltoallBlockValue(world.rank, to); });
    receive.assign(total, 0.0f);
    return MeasureBlocking(
        world, what, size_bytes, configured_iters,
        [&] { MPI_Alltoall(send.data(), count, MPI_FLOAT, receive.data(), count, MPI_FLOAT, MPI_COMM_WORLD); },
        [&] { return WrongInBlocks(receive, block, [&](int from) { return AlltoallBlockValue(from, world.rank); }); });
  }
  if (collective.name == "allgather") {
    // S is the gathered output: each rank contributes one block.
    send.assign(block, AllgatherBlockValue(world.rank));
    receive.assign(total, 0.0f);
    return MeasureBlocking(
        world, what, size_bytes, configured_iters,
        [&] { MPI_Allgather(send.data(), count, MPI_FLOAT, receive.data(), count, MPI_FLOAT, MPI_COMM_WORLD); },
        [&] { return WrongInBlocks(receive, block, [](int from) { return AllgatherBlockValue(from); }); });
  }
  // reduce_scatter: S is the reduced input; each rank receives the sum of its own block.
  send = fill(total, [&](int to) { return ReduceScatterInputValue(world.rank, to); });
  receive.assign(block, 0.0f);
  return MeasureBlocking(
      world, what, size_bytes, configured_iters,
      [&] { MPI_Reduce_scatter_block(send.data(), receive.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); },
      [&] {
        const float expected = ReduceScatterExpectedSum(world.rank, world.size);
        return static_cast<long long>(std::count_if(receive.begin(), receive.end(), [&](float v) { return v != expected; }));
      });
}

}  // namespace

void MeasureCollectiveTables(const SweepWorld& world, const std::vector<std::string>& collectives,
                             const std::vector<long long>& sizes_bytes, int configured_iters) {
  for (const std::string& name : collectives) {
    const std::optional<CollectiveDefinition> collective = FindCollective(name);
    if (!collective) continue;  // the arguments were checked; nothing to measure
    const std::string title = "gpuconform " + collective->mpi_call + " (float) on host buffers";
    if (world.rank == 0) std::cout << CollectiveMarkerLine(name) << HostBufferHeader(world, title) << std::flush;
    const double busbw_factor = CollectiveBusBandwidth(1.0, world.size);
    long long previous = 0;
    for (long long requested : sizes_bytes) {
      const long long size = CollectiveSizeBytes(requested, world.size);
      if (size == previous) continue;  // two sizes that round to one row: measure it once
      previous = size;
      const SizeResult result = MeasureOne(world, *collective, size, configured_iters);
      if (world.rank == 0) {
        std::cout << CollectiveTableRow(size, result.time_us, collective->redop, busbw_factor, result.wrong)
                  << std::flush;
      }
    }
  }
}

}  // namespace gpuconform::mpi_sweep
