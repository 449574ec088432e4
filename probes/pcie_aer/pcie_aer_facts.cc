#include "probes/pcie_aer/pcie_aer_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/pcie_aer/pcie_aer_probe.h"

namespace gpuconform::pcie_aer {

const Result<AerReport>& ReadAer(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<AerReport>>("aer", node, [&] {
    return facts::ParseNodeOutput(raw, node, AerProbe(), "", ParseAer);
  });
}

}  // namespace gpuconform::pcie_aer
