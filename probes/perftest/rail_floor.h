// The floor a rail's ib_write_bw pair must reach, from the profile, and what "slow" means for
// a pair: the pairing pass (which pairs to measure again) and the Perftest suite (which node to
// name) use this one definition. Pure.
#pragma once

#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/perftest/rail_pairs_parse.h"

namespace gpuconform::perftest {

// ib_write_bw's average reaches 95% or more of the line rate on a healthy link with its default
// 64 KiB messages (NVIDIA's perftest performance tuning guides), so 90% leaves room for noise.
inline constexpr double kRailFloorFraction = 0.9;

struct RailFloor {
  double gbit_per_s = 0;
  std::string source;
};

// 90% of the profile's infiniband.rate_gbit_per_s, with the rate's source; nullopt where the
// profile expects no InfiniBand/RoCE rails.
std::optional<RailFloor> RailFloorOf(const Profile& profile);

// A pair whose average is below the floor, or that failed in a way that may be the rail's. A
// pair that failed before it measured the rail (pair_error.h's NotMeasured) is not slow.
bool IsSlow(const RailPair& pair, double floor_gbit_per_s);

// A pair as the MPI sweep's pair bookkeeping counts it (probes/mpi_sweep/pair_results.h): a
// slow pair carries a failure (its error, or "below the floor"), so CountsAsSlow is IsSlow.
// Pairs that were not measured must be left out of that bookkeeping, not passed here: they
// count as neither slow nor healthy, for either node.
mpi_sweep::PairResult AsPairResult(const RailPair& pair, double floor_gbit_per_s);
bool CountsAsSlow(const mpi_sweep::PairResult& result);

}  // namespace gpuconform::perftest
