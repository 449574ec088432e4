#include "probes/perftest/rail_floor.h"

#include <fmt/format.h>

#include "probes/perftest/pair_error.h"

namespace gpuconform::perftest {

std::optional<RailFloor> RailFloorOf(const Profile& profile) {
  if (!profile.infiniband || !profile.infiniband->present || profile.infiniband->rate_gbit_per_s <= 0) {
    return std::nullopt;
  }
  return RailFloor{kRailFloorFraction * profile.infiniband->rate_gbit_per_s,
                   fmt::format("90% of infiniband.rate_gbit_per_s {} (ib_write_bw reaches 95% or more of a healthy "
                               "link's rate): {}",
                               profile.infiniband->rate_gbit_per_s, profile.infiniband->source)};
}

bool IsSlow(const RailPair& pair, double floor_gbit_per_s) {
  if (NotMeasured(pair)) return false;
  return !pair.error.empty() || !pair.bw_average_gbit_per_s || *pair.bw_average_gbit_per_s < floor_gbit_per_s;
}

mpi_sweep::PairResult AsPairResult(const RailPair& pair, double floor_gbit_per_s) {
  mpi_sweep::PairResult result{pair.client, pair.server, 0, pair.bw_average_gbit_per_s.value_or(0), pair.error};
  if (IsSlow(pair, floor_gbit_per_s) && result.failure.empty()) result.failure = "below the floor";
  return result;
}

bool CountsAsSlow(const mpi_sweep::PairResult& result) { return !result.failure.empty(); }

}  // namespace gpuconform::perftest
