// What the MPI sweep worker's measurements share: its world (MPI's rank and size, every rank's
// host), the words a stalled collective ends the step with, the table header over that world,
// and how one size of a blocking collective is timed and checked.
// Contract: inside the worker only (MPI is initialised). Every rank calls MeasureBlocking with
// the same arguments; it is a collective of the world, under one CollectiveDeadline.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "harness/world/collective_deadline.h"
#include "probes/allreduce_sweep/sweep.h"

namespace gpuconform::mpi_sweep {

struct SweepWorld {
  int rank = 0;
  int size = 1;
  std::string host;
  std::vector<std::string> rank_hosts;  // by rank
  std::chrono::seconds timeout{60};
};

inline std::string StallProblem(const SweepWorld& world, const std::string& what) {
  return world.host + ": " + what + " did not complete within " + std::to_string(world.timeout.count()) +
         " s: a rank stopped progressing (stopped process, hung node, or a dead link); the measurement was "
         "abandoned (GPUCONFORM_COLLECTIVE_TIMEOUT_S sets the deadline)";
}

// "# <title>: nRanks N nNodes M", a rank line per rank (host buffers), the column header.
inline std::string HostBufferHeader(const SweepWorld& world, const std::string& title) {
  std::set<std::string> hosts(world.rank_hosts.begin(), world.rank_hosts.end());
  std::vector<allreduce_sweep::SweepRank> ranks;
  for (const auto& host : world.rank_hosts) ranks.push_back({host, -1, "[host] CPU memory"});
  return allreduce_sweep::SweepTableHeader(title, ranks, static_cast<int>(hosts.size()));
}

struct SizeResult {
  long long size_bytes = 0;
  double time_us = 0;  // slowest rank's mean per iteration
  long long wrong = 0;
  double spent_us = 0;  // the slowest rank's time in the warm-ups and iterations, agreed by all ranks
};

// The latency band's sizes (8 B to 64 KiB) take tens of microseconds each on a healthy fabric,
// but a lossy one turns each into a TCP retransmit of 200 ms or more: each size then times as
// many allreduces as fit kLatencySizeBudgetUs (at least one, at most 50), from its warm-ups'
// agreed time, and the worker stops the band once it has spent kLatencyBandBudgetUs.
inline constexpr double kLatencySizeBudgetUs = 300e3;
inline constexpr double kLatencyBandBudgetUs = 3e6;

// One size of a blocking collective `call()`: warm-ups, timed iterations each from a barrier,
// then `count_wrong()` (this rank's wrong elements). The slowest rank's mean is the collective's
// time; wrong counts add up over ranks. `what` names the collective for a stall.
template <typename Call, typename CountWrong>
SizeResult MeasureBlocking(const SweepWorld& world, const std::string& what, long long size_bytes,
                           int configured_iters, Call call, CountWrong count_wrong) {
  using allreduce_sweep::kMiB;
  // Up to 5 of each, as nccl-tests' -w 5 -n 5, fewer for large sizes so that a sweep over a
  // slow fabric (eth0) still ends within the deadline. Warm-up matters most where a collective
  // takes milliseconds (connections, TCP windows), so it tapers off sooner.
  const int warmups = static_cast<int>(std::clamp<long long>(16 * kMiB / size_bytes, 1, 5));
  // A latency-bound size (64 KiB or less) takes tens of microseconds, so up to 50 of them
  // (within kLatencySizeBudgetUs) steady the mean against one scheduler hiccup on shared cores.
  const bool latency_bound = size_bytes <= 64 * 1024;
  int iterations = allreduce_sweep::TimedIterations(
      latency_bound ? 50 : static_cast<int>(std::clamp<long long>(64 * kMiB / size_bytes, 1, 5)), configured_iters);
  const CollectiveDeadline deadline(world.timeout, StallProblem(world, what));
  const auto warmup_start = std::chrono::steady_clock::now();
  for (int i = 0; i < (latency_bound ? 2 : warmups); ++i) call();  // warm-up: connections, TCP windows, pages
  double warmup_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - warmup_start).count();
  MPI_Allreduce(MPI_IN_PLACE, &warmup_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);  // every rank, the same count
  if (latency_bound && configured_iters <= 0) {
    iterations = static_cast<int>(std::clamp(kLatencySizeBudgetUs / std::max(warmup_us / 2, 1.0), 1.0, 50.0));
  }
  // As IMB-MPI1 times it: each collective alone, from a barrier, so one iteration's rank skew
  // does not leak into the next one's time; the barriers are not timed.
  double total_us = 0;
  for (int i = 0; i < iterations; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    call();
    total_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  }
  double mean_us = total_us / iterations;
  long long wrong = count_wrong();
  SizeResult result{size_bytes, 0, 0, 0};
  MPI_Allreduce(&mean_us, &result.time_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&wrong, &result.wrong, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  result.spent_us = warmup_us + result.time_us * iterations;
  return result;
}

}  // namespace gpuconform::mpi_sweep
