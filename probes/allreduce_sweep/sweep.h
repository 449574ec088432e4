// The allreduce sweep both backends run (MPI on host buffers, NCCL on GPU buffers): the sizes
// to measure, and the text table they print in nccl-tests' all_reduce_perf format, so that
// one parser (nccl_tests_parse.h) and one judge read either.
// Contract: pure. Sizes in bytes; times in microseconds; bandwidths in GB/s (1e9 B/s).
#pragma once

#include <string>
#include <vector>

#include "harness/core/profile.h"

namespace gpuconform::allreduce_sweep {

inline constexpr long long kMiB = 1024 * 1024;
inline constexpr long long kGiB = 1024 * kMiB;

// Doubling from `smallest_bytes` up to the largest floor size the profile names (at least
// `smallest_bytes`), capped by `cap_bytes` and by `configured_max_bytes` when positive
// (RunOptions::allreduce_max_bytes). The last size is the largest itself even when it is not
// a doubling of the first.
std::vector<long long> SweepSizes(const Profile* profile, long long smallest_bytes, long long cap_bytes,
                                  long long configured_max_bytes);

// Timed iterations per size: `configured_iters` when positive (RunOptions::allreduce_iters, as
// nccl-tests' -n; more iterations give steadier numbers on a noisy fabric), else `planned`.
int TimedIterations(int planned, int configured_iters);

// What each rank (an MPI rank, or a GPU of the NCCL run) puts in every element of its send
// buffer, and what every element of the sum must then be. Contributions cycle through 1..8
// (not rank+1), so the sum stays an exact float (below 2^24) for up to two million ranks and a
// correct result never counts as wrong; a missing or doubled rank still changes it.
float RankContribution(int rank);
float ExpectedAllreduceSum(int nranks);

// One participating rank, for the table's "#  Rank ..." lines.
struct SweepRank {
  std::string host;
  int device = -1;           // GPU ordinal on its host; -1 for a host buffer
  std::string device_label;  // "[0000:18:00.0] NVIDIA H100 80GB HBM3", or "[host] CPU memory"
};

// "# <title>: nRanks N nNodes M", the rank lines and the column header.
std::string SweepTableHeader(const std::string& title, const std::vector<SweepRank>& ranks, int nodes);

// One row: size, count, type float, redop sum, root -1, time, algbw, busbw (over `ranks`), #wrong.
std::string SweepTableRow(long long size_bytes, double time_us, int ranks, long long wrong_elements);

// algbw = bytes / time (0 for a time of 0), and any collective's row from its figures: size,
// count (of floats), type float, `redop`, root -1, time, algbw, busbw, #wrong.
double AlgorithmBandwidth(long long size_bytes, double time_us);
std::string FormattedRow(long long size_bytes, double time_us, double algbw_gb_per_s, double busbw_gb_per_s,
                         const std::string& redop, long long wrong_elements);

}  // namespace gpuconform::allreduce_sweep
