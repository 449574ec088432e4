// Perftest suite's checks: ib_write_bw between pairs of nodes on each rail (HCA and port), as
// the pairing pass measured them (probes/perftest/rail_pairs_parse.h). A pair below the floor
// is slow; a node every one of whose pairs on a rail is slow (two or more, the second pass's
// pair with a known-good node included) is the one named, so its ring neighbours, which pass
// with other nodes, are not blamed; a slow pair that no such node explains names the path
// between its two nodes. Pure: the pairs + floor in, one cluster-wide judgement out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/verdict.h"
#include "probes/perftest/rail_pairs_parse.h"

namespace gpuconform::perftest {

inline constexpr char kSuite[] = "Perftest";
inline constexpr char kRailPairsAtFloor[] = "RailPairsAtFloor";

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

CheckResult CheckRailPairs(const std::vector<RailPair>& pairs, const RailFloor& floor);

}  // namespace gpuconform::perftest
