// GatherLive: runs the live probes across the world and gives rank 0 every rank's outputs.
// Contract: a collective. The lowest rank on each host runs that node's probes (so two
// ranks on one node do not run nvidia-smi twice); rank 0 alone runs cluster-scope probes;
// then rank 0 receives all outputs (the other ranks get an empty GatheredRun). Progress goes
// to `progress` on rank 0 only.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/live_source.h"
#include "harness/profile.h"
#include "harness/run_options.h"
#include "harness/world.h"

namespace gpuconform {

// What a collective probe may use. Every rank calls the probe, in the same order, so it
// may call World collectives; it must not return early before one.
struct CollectiveContext {
  const World& world;
  const Profile* profile = nullptr;  // what the run judges against (sizes to measure); may be null
  std::string host;
  bool node_owner = false;              // the lowest rank on this host: its answer is kept
  std::vector<std::string> rank_hosts;  // host of every rank, by rank
  const RunOptions& options = DefaultRunOptions();
};

// Per-rank facts of the launch (for the Launch suite): rank, host and selected environment.
struct RankInfo {
  int rank = 0;
  std::string host;
  std::string env_text;  // "NAME=value" lines of the launch environment
};

struct GatheredRun {
  ClusterRaw raw;
  std::vector<RankInfo> ranks;
};

GatheredRun GatherLive(const World& world, LiveSource& live, const std::vector<ProbeSpec>& probes,
                       const std::function<void(const std::string&)>& progress, const Profile* profile = nullptr);

}  // namespace gpuconform
