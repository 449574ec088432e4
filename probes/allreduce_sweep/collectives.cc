#include "probes/allreduce_sweep/collectives.h"

#include <algorithm>

#include "harness/util/text_util.h"
#include "probes/allreduce_sweep/sweep.h"

namespace gpuconform::allreduce_sweep {

const std::vector<CollectiveDefinition>& BeyondAllreduce() {
  // nccl-tests prints redop "none" for the collectives that do not reduce.
  static const std::vector<CollectiveDefinition> kCollectives = {
      {"alltoall", "alltoall_perf", "MPI_Alltoall", "none"},
      {"allgather", "all_gather_perf", "MPI_Allgather", "none"},
      {"reduce_scatter", "reduce_scatter_perf", "MPI_Reduce_scatter_block", "sum"},
  };
  return kCollectives;
}

std::optional<CollectiveDefinition> FindCollective(std::string_view name) {
  for (const auto& collective : BeyondAllreduce()) {
    if (collective.name == name) return collective;
  }
  return std::nullopt;
}

std::string CollectiveNames() {
  std::vector<std::string> names;
  for (const auto& collective : BeyondAllreduce()) names.push_back(collective.name);
  return Join(names, ", ");
}

double CollectiveBusBandwidth(double algbw_gb_per_s, int ranks) {
  return ranks > 1 ? algbw_gb_per_s * (ranks - 1) / ranks : algbw_gb_per_s;
}

long long CollectiveSizeBytes(long long size_bytes, int ranks) {
  const long long unit = static_cast<long long>(std::max(ranks, 1)) * static_cast<long long>(sizeof(float));
  return std::max(size_bytes / unit, 1LL) * unit;
}

std::string CollectiveTableRow(long long size_bytes, double time_us, const std::string& redop, double busbw_factor,
                               long long wrong_elements) {
  const double algbw = AlgorithmBandwidth(size_bytes, time_us);
  return FormattedRow(size_bytes, time_us, algbw, algbw * busbw_factor, redop, wrong_elements);
}

float AlltoallBlockValue(int from, int to) {
  // Sender and receiver both in the value: a block delivered to another rank, or into another
  // sender's slot, differs. 4095 + 4096 x 2047 + 1 < 2^24, so every value is exact.
  return static_cast<float>(from % 4096 + 4096 * (to % 2048) + 1);
}

float AllgatherBlockValue(int from) { return static_cast<float>(from % ((1 << 24) - 1) + 1); }

float ReduceScatterInputValue(int from, int to) {
  // RankContribution: a missing or doubled rank changes the sum; the slot's factor: a block
  // reduced into another slot does too.
  return RankContribution(from) * static_cast<float>(to % 16 + 1);
}

float ReduceScatterExpectedSum(int to, int ranks) {
  return ExpectedAllreduceSum(ranks) * static_cast<float>(to % 16 + 1);
}

}  // namespace gpuconform::allreduce_sweep
