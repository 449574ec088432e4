#include "probes/nccl_topo/nccl_topo_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/nccl_topo/nccl_topo_file_probe.h"
#include "probes/nccl_topo/nccl_topo_probe.h"

namespace gpuconform::nccl_topo {

const Result<Topology>& ReadTopology(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<Topology>>("nccl-topology", node, [&]() -> Result<Topology> {
    const RawOutput out = raw.NodeOutput(node, TopologyProbe().id);
    if (out.status == ProbeStatus::kAbsent) return Error{out.detail + "; " + kHowToProduce};
    return facts::ParseOutput(out, ParseTopologyXml);
  });
}

const Result<Topology>& ReadTopoFile(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<Topology>>("nccl-topo-file", node, [&] {
    return facts::ParseOutput(raw.NodeOutput(node, NcclTopoFile().id), ParseTopologyXml);
  });
}

}  // namespace gpuconform::nccl_topo
