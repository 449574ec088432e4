#include "probes/allreduce_sweep/sweep.h"

#include <fmt/format.h>

#include <algorithm>

#include "probes/allreduce_sweep/allreduce_profile.h"
#include "probes/nccl_tests/bandwidth_table.h"

namespace gpuconform::allreduce_sweep {

using namespace gpuconform::nccl_tests;

std::vector<long long> SweepSizes(const Profile* profile, long long smallest_bytes, long long cap_bytes,
                                  long long configured_max_bytes) {
  long long largest = smallest_bytes;
  if (profile != nullptr) {
    for (const auto& floor : profile->GetOrDefault<AllreduceFloors>().floors) {
      largest = std::max(largest, floor.size_bytes);
    }
  }
  if (configured_max_bytes > 0) largest = std::min(largest, configured_max_bytes);
  largest = std::max(std::min(largest, cap_bytes), static_cast<long long>(sizeof(float)));
  std::vector<long long> sizes;
  for (long long size = std::min(smallest_bytes, largest); size <= largest; size *= 2) sizes.push_back(size);
  if (sizes.empty() || sizes.back() != largest) sizes.push_back(largest);
  return sizes;
}

float RankContribution(int rank) { return static_cast<float>(rank % 8 + 1); }

float ExpectedAllreduceSum(int nranks) {
  long long sum = 0;
  for (int rank = 0; rank < nranks; ++rank) sum += rank % 8 + 1;
  return static_cast<float>(sum);
}

int TimedIterations(int planned, int configured_iters) { return configured_iters > 0 ? configured_iters : planned; }

std::string SweepTableHeader(const std::string& title, const std::vector<SweepRank>& ranks, int nodes) {
  std::string text = fmt::format("# {}: nRanks {} nNodes {}\n", title, ranks.size(), nodes);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    text += fmt::format("#  Rank {:2} Group  0 Pid {:6} on {:>10} device {} {}\n", r, 0, ranks[r].host,
                        ranks[r].device, ranks[r].device_label);
  }
  text += "#\n#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
          "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n";
  return text;
}

double AlgorithmBandwidth(long long size_bytes, double time_us) {
  return time_us > 0 ? static_cast<double>(size_bytes) / (time_us * 1e-6) / 1e9 : 0;
}

std::string FormattedRow(long long size_bytes, double time_us, double algbw_gb_per_s, double busbw_gb_per_s,
                         const std::string& redop, long long wrong_elements) {
  return fmt::format("{:>13} {:>13} {:>9} {:>7} {:>7} {:>8.1f} {:>7.3f} {:>7.3f} {:>6}\n", size_bytes,
                     size_bytes / static_cast<long long>(sizeof(float)), "float", redop, -1, time_us, algbw_gb_per_s,
                     busbw_gb_per_s, wrong_elements);
}

std::string SweepTableRow(long long size_bytes, double time_us, int ranks, long long wrong_elements) {
  const double algbw = AlgorithmBandwidth(size_bytes, time_us);
  return FormattedRow(size_bytes, time_us, algbw, AllreduceBusBandwidth(algbw, ranks), "sum", wrong_elements);
}

}  // namespace gpuconform::allreduce_sweep
