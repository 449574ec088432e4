// A measured allreduce sweep, whoever measured it: gpuconform's MPI backend, or an
// nccl-tests all_reduce_perf run an operator already has. Both become this one table, so
// one judge applies the profile's floors to either.
// Units: sizes in bytes, times in microseconds, bandwidths in GB/s (1e9 bytes per second),
// with nccl-tests' definitions: algbw = bytes / time, busbw = algbw * 2(n-1)/n for allreduce.
#pragma once

#include <string>
#include <vector>

namespace gpuconform::nccl_tests {

struct BandwidthRow {
  long long size_bytes = 0;
  double time_us = 0;
  double algbw_gb_per_s = 0;
  double busbw_gb_per_s = 0;
  // Result checked (nccl-tests' #wrong == 0, or our own check); false when wrong or when
  // the tool printed N/A (not checked).
  bool checked = false;
  bool correct = true;
  long long wrong_elements = 0;  // #wrong, out-of-place plus in-place; 0 when not checked
};

struct BandwidthTable {
  std::string origin;      // file or probe the table came from, for messages
  std::string tool;        // "nccl-tests all_reduce_perf" or "gpuconform MPI_Allreduce"
  int ranks = 0;           // participating ranks (nccl-tests: nRanks; 0 when not stated)
  int nodes = 0;           // participating nodes (0 when not stated)
  std::vector<BandwidthRow> rows;  // ascending size; for in-place/out-of-place, the out-of-place figures
  // The tool's closing summary ("# Out of bounds values", "# Avg bus bandwidth") was seen,
  // so the sweep ran to its end rather than being cut off or excerpted.
  bool ended_with_summary = false;
  // "# Avg bus bandwidth" as printed, for the report only: it averages latency-bound small
  // sizes (and only the rows printed), so it is never judged. 0 when not printed.
  double reported_avg_busbw_gb_per_s = 0;
};

// busbw from algbw for an allreduce over `ranks` ranks (nccl-tests' factor 2(n-1)/n).
inline double AllreduceBusBandwidth(double algbw_gb_per_s, int ranks) {
  return ranks > 1 ? algbw_gb_per_s * 2.0 * (ranks - 1) / ranks : algbw_gb_per_s;
}

}  // namespace gpuconform::nccl_tests
