#include "probes/nic_pcie/nic_pcie_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/nic_pcie/nic_pcie_probe.h"

namespace gpuconform::nic_pcie {

const Result<NicPcieReport>& ReadNicPcie(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NicPcieReport>>("nic-pcie", node, [&] {
    return facts::ParseNodeOutput(raw, node, NicPcieProbe(), "the NIC PCIe probe could not read sysfs", ParseNicPcie);
  });
}

}  // namespace gpuconform::nic_pcie
