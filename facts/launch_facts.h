// The launch facts of every rank of the run (harness/world/gather.h RankInfo: its rank, host and
// launch environment, from the live gather or a snapshot's cluster/launch-ranks.txt), each
// rank's environment read into a map, in rank order. Read once per run: the run's ranks, like
// its raw outputs, do not change once evaluation starts. Pure.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/world/gather.h"

namespace gpuconform::facts {

struct RankLaunch {
  int rank = 0;
  std::string host;
  std::map<std::string, std::string> env;  // parsed from RankInfo::env_text

  std::string Env(const std::string& name) const;  // "" when unset
};

// Each rank's "NAME=value" lines as a map, the ranks sorted by rank.
std::vector<RankLaunch> ParseRanks(const std::vector<RankInfo>& ranks);

// The run's ranks (ParseRanks), cached in the run's facts.
const std::vector<RankLaunch>& ReadRankLaunches(const ClusterRaw& raw, const std::vector<RankInfo>& ranks);

}  // namespace gpuconform::facts
