// The launch facts of a capture (every rank's number, host and launch environment), kept in
// the snapshot as cluster/launch-ranks.txt so that a replay judges the Launch suite as the
// live run did:
//   rank 0 node1
//     SLURM_PROCID=0
//     ...
// Contract: pure; ParseLaunchRanks reads what FormatLaunchRanks writes and names origin:line
// for anything else.
#pragma once

#include <string>
#include <vector>

#include "harness/util/result.h"
#include "harness/world/gather.h"

namespace gpuconform {

inline constexpr char kLaunchRanksFile[] = "cluster/launch-ranks.txt";

std::string FormatLaunchRanks(const std::vector<RankInfo>& ranks);
Result<std::vector<RankInfo>> ParseLaunchRanks(const std::string& text, const std::string& origin);

}  // namespace gpuconform
