// ClusterRaw: every raw probe output of the run, for every node — a snapshot in memory, or,
// when a snapshot directory is replayed (ReplayLazily), read from it node by node on demand.
// Contract: rank 0 holds the gathered outputs of all ranks and judges them. Lookups of a probe
// that was never fetched answer kAbsent with a detail naming node and probe, so a check can
// always turn a lookup into a verdict.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "harness/core/fact_cache.h"
#include "harness/core/probe.h"
#include "harness/util/result.h"

namespace gpuconform {

struct ClusterRaw {
  std::vector<std::string> nodes;  // sorted node names
  // node -> probe id -> output. Mutable only so that evaluation can release a node's outputs
  // once every check has judged it (ReleaseNode), as a fleet's raw text is most of a run's memory.
  mutable std::map<std::string, std::map<std::string, RawOutput>> node;
  std::map<std::string, RawOutput> cluster;  // probe id -> output
  // What the facts layer parsed from these outputs (facts/, probes/*): each input parsed
  // once per run. Mutable because parsing on demand does not change what the run holds.
  mutable FactCache facts;
  // Snapshot replay (ReplayLazily): a node's outputs are read when a check first asks for them,
  // and `node` keeps only the outputs of the node asked for last. Checks judge node by node, so
  // each file is read about once, and a fleet's raw text is never in memory all at once.
  // Empty when every output is in `node` (live runs, FetchAll).
  std::function<RawOutput(const std::string& node_name, const std::string& probe_id)> node_loader;
  mutable std::string loaded_node;         // whose outputs `node` holds, when loading lazily
  // Nodes a lazy replay must not read again: hashed, as a fleet's sorted names share long prefixes.
  mutable std::unordered_set<std::string> released;

  RawOutput NodeOutput(const std::string& node_name, const std::string& probe_id) const;
  RawOutput ClusterOutput(const std::string& probe_id) const;
  // Drops a node's outputs and parsed facts once nothing will read them again; a later lookup
  // answers kAbsent. The node stays in `nodes`, and cluster outputs are kept.
  void ReleaseNode(const std::string& node_name) const;

  std::string ToJson() const;
  static Result<ClusterRaw> FromJson(const std::string& json);
  // Adds what `other` holds; node lists are merged and sorted.
  void Merge(const ClusterRaw& other);
  // Adds every part, in order (a later part's output for the same probe replaces an earlier
  // one's), moving the outputs and sorting the node list once: linear in the parts' size up
  // to the one sort, where merging N one-node parts one by one would sort N times.
  void MergeAll(std::vector<ClusterRaw> parts);
};

// Reads every probe for every node the source knows.
ClusterRaw FetchAll(ProbeSource& source, const std::vector<ProbeSpec>& probes);
// The same outputs as FetchAll, but only the cluster outputs are read now; node outputs are
// read on demand through `node_loader` (which keeps the source alive).
ClusterRaw ReplayLazily(std::shared_ptr<ProbeSource> source, const std::vector<ProbeSpec>& probes);

// Writes the raw outputs as a layout-v1 snapshot. Failed probes are written as
// "<file>.error" so a replay reports the original cause. Each file is published atomically.
Result<int> WriteSnapshot(const ClusterRaw& raw, const std::vector<ProbeSpec>& probes, const std::string& dir,
                          const std::map<std::string, std::string>& manifest);

}  // namespace gpuconform
