#include "probes/fabric_reach/fabric_reach_facts.h"

#include "probes/fabric_reach/reachability_probe.h"

namespace gpuconform::fabric_reach {

namespace {

Result<NodeReach> ParseNodeReach(const ClusterRaw& raw, const std::string& node) {
  const RawOutput out = raw.NodeOutput(node, FabricReachProbe().id);
  if (out.status == ProbeStatus::kAbsent) return Error{node + ": no fabric-reach.txt in the snapshot"};
  if (!out.ok()) return Error{out.detail.empty() ? node + ": fabric-reach.txt " + ProbeStatusName(out.status) : out.detail};
  return ParseReach(out.text, node + "/fabric-reach.txt");
}

}  // namespace

const Result<NodeReach>& ReadReach(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NodeReach>>("fabric-reach", node, [&] { return ParseNodeReach(raw, node); });
}

}  // namespace gpuconform::fabric_reach
