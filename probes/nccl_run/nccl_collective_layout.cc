#include "probes/nccl_run/nccl_collective_layout.h"

#include <algorithm>

#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/sweep.h"

namespace gpuconform::nccl_run {

using namespace gpuconform::allreduce_sweep;

std::optional<CollectiveLayout> LayoutOf(const std::string& collective, int rank, int nranks, long long size_bytes) {
  const auto n = static_cast<std::size_t>(std::max(nranks, 1));
  const std::size_t total = static_cast<std::size_t>(std::max(size_bytes, 0LL)) / sizeof(float);
  const std::size_t block = total / n;
  if (collective.empty() || collective == "allreduce") {
    return CollectiveLayout{{1, total, [rank](int) { return RankContribution(rank); }},
                            {1, total, [nranks](int) { return ExpectedAllreduceSum(nranks); }}};
  }
  if (collective == "alltoall") {
    // Block j of the send buffer goes to rank j; slot i of the result came from rank i.
    return CollectiveLayout{{n, block, [rank](int to) { return AlltoallBlockValue(rank, to); }},
                            {n, block, [rank](int from) { return AlltoallBlockValue(from, rank); }}};
  }
  if (collective == "allgather") {
    return CollectiveLayout{{1, block, [rank](int) { return AllgatherBlockValue(rank); }},
                            {n, block, [](int from) { return AllgatherBlockValue(from); }}};
  }
  if (collective == "reduce_scatter") {
    return CollectiveLayout{{n, block, [rank](int to) { return ReduceScatterInputValue(rank, to); }},
                            {1, block, [rank, nranks](int) { return ReduceScatterExpectedSum(rank, nranks); }}};
  }
  return std::nullopt;
}

}  // namespace gpuconform::nccl_run
