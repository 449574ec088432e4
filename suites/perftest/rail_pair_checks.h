// Perftest suite's checks: ib_write_bw between pairs of nodes on each rail (HCA and port), as
// the pairing pass measured them (probes/perftest/rail_pairs_parse.h). A pair below the floor
// is slow; a node every one of whose pairs on a rail is slow (two or more, the second pass's
// pair with a known-good node included) is the one named, so its ring neighbours, which pass
// with other nodes, are not blamed; a slow pair that no such node explains names the path
// between its two nodes. Pure: the pairs + floor in, one cluster-wide judgement out.
#pragma once

#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/verdict.h"
#include "probes/perftest/rail_floor.h"
#include "probes/perftest/rail_pairs_parse.h"

namespace gpuconform::perftest {

inline constexpr char kSuite[] = "Perftest";
inline constexpr char kRailPairsAtFloor[] = "RailPairsAtFloor";

CheckResult CheckRailPairs(const std::vector<RailPair>& pairs, const RailFloor& floor);

}  // namespace gpuconform::perftest
