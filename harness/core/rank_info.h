// RankInfo: one rank's facts of the launch, kept for the Launch suite (its rank, its host and
// the launch environment it saw). Gathered live by harness/world/gather and kept in a snapshot
// by harness/world/launch_ranks_file; read by the checks through the registry's context.
#pragma once

#include <string>

namespace gpuconform {

struct RankInfo {
  int rank = 0;
  std::string host;
  std::string env_text;  // "NAME=value" lines of the launch environment
};

}  // namespace gpuconform
