// Perftest suite's checks: ib_write_bw between pairs of nodes on each rail (HCA and port), as
// the pairing pass measured them (probes/perftest/rail_pairs_parse.h). A pair below the floor
// is slow; a node every one of whose pairs on a rail is slow (two or more, the second pass's
// pair with a known-good node included) is the one named, so its ring neighbours, which pass
// with other nodes, are not blamed; a slow pair that no such node explains names the path
// between its two nodes. What the pass could not measure is the tooling's, never a rail's: a
// pair that failed before it measured its rail (perftest's handshake, its GPU setup, a deadline,
// a missing tool: pair_error.h) counts for neither node and is named as `rail-pair-not-measured`
// with both nodes and perftest's words; nodes with active rails but no ib_write_bw are named,
// as a hostlist, as `tool-missing`. Those alone make the check an error; beside a rail's
// finding they ride along with the failure. Pure: the pairs + floor in, one cluster-wide
// judgement out.
#pragma once

#include <string>
#include <vector>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/perftest/rail_floor.h"
#include "probes/perftest/rail_pairs_parse.h"

namespace gpuconform::perftest {

inline constexpr char kSuite[] = "Perftest";
GPUCONFORM_CHECK_NAME(RailPairsAtFloor);
GPUCONFORM_CHECK_NAME(RailLatencyConsistent);

// Latency is judged against the rail's own pairs, not a fixed number: what a healthy pair
// measures depends on the hops between the two nodes, the cables and the link generation, which
// no profile states. A pair at more than twice its rail's median (of three or more pairs)
// stands out from its peers.
inline constexpr double kLatencyMedianFactor = 2.0;

CheckResult CheckRailPairs(const RailPairsFile& file, const RailFloor& floor);
// The pairs' ib_write_lat: a node above the ceiling in every pair it was in (two or more) is
// named (`rail-latency-high`), a pair that no such node explains names the path
// (`rail-pair-latency-high`); a rail with fewer than three measured pairs is not judged, and
// pairs without latency (older files) are skipped, saying so.
CheckResult CheckRailLatency(const std::vector<RailPair>& pairs);

}  // namespace gpuconform::perftest
