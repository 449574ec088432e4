// ClusterRaw: every raw probe output of the run, for every node — a snapshot in memory.
// Contract: the same ClusterRaw is on every rank after gathering, so every rank evaluates
// the same checks. Lookups of a probe that was never fetched answer kAbsent with a detail
// naming node and probe, so a check can always turn a lookup into a verdict.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/fact_cache.h"
#include "harness/probe.h"
#include "harness/result.h"

namespace gpuconform {

struct ClusterRaw {
  std::vector<std::string> nodes;                                 // sorted node names
  std::map<std::string, std::map<std::string, RawOutput>> node;  // node -> probe id -> output
  std::map<std::string, RawOutput> cluster;                       // probe id -> output
  // What the facts layer parsed from these outputs (facts/, probes/*): each input parsed
  // once per run. Mutable because parsing on demand does not change what the run holds.
  mutable FactCache facts;

  RawOutput NodeOutput(const std::string& node_name, const std::string& probe_id) const;
  RawOutput ClusterOutput(const std::string& probe_id) const;

  std::string ToJson() const;
  static Result<ClusterRaw> FromJson(const std::string& json);
  // Adds what `other` holds; node lists are merged and sorted.
  void Merge(const ClusterRaw& other);
};

// Reads every probe for every node the source knows (snapshot replay).
ClusterRaw FetchAll(ProbeSource& source, const std::vector<ProbeSpec>& probes);

// Writes the raw outputs as a layout-v1 snapshot. Failed probes are written as
// "<file>.error" so a replay reports the original cause. Each file is published atomically.
Result<int> WriteSnapshot(const ClusterRaw& raw, const std::vector<ProbeSpec>& probes, const std::string& dir,
                          const std::map<std::string, std::string>& manifest);

}  // namespace gpuconform
