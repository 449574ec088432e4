#include "probes/pci_devices/pci_devices_facts.h"

#include "facts/read_support.h"
#include "harness/probe_catalog.h"

namespace gpuconform::pci_devices {

const Result<LivePciDevices>& ReadPciDevices(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<LivePciDevices>>("pci-devices", node, [&] {
    return facts::ParseOutput(raw.NodeOutput(node, probes::PciDevices().id), ParsePciDevices);
  });
}

}  // namespace gpuconform::pci_devices
