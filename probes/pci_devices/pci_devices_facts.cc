#include "probes/pci_devices/pci_devices_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/pci_devices/pci_devices_probe.h"

namespace gpuconform::pci_devices {

const Result<LivePciDevices>& ReadPciDevices(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<LivePciDevices>>("pci-devices", node, [&] {
    return facts::ParseOutput(raw.NodeOutput(node, PciDevices().id), ParsePciDevices);
  });
}

}  // namespace gpuconform::pci_devices
