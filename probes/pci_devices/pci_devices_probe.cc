#include "probes/pci_devices/pci_devices_probe.h"

#include "harness/core/builtin_probes.h"

namespace gpuconform::pci_devices {

ProbeSpec PciDevices() { return BuiltinProbe("pci-devices", ProbeScope::kNode, "pci-devices.txt", PciDevicesOutput); }

}  // namespace gpuconform::pci_devices
