// The pci-devices probe: the node's PCI devices, listed in process from sysfs
// (harness/core/builtin_probes.h PciDevicesOutput; pci_devices.h reads the list). Its snapshot file
// name is part of the snapshot layout v1 contract.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::pci_devices {

ProbeSpec PciDevices();  // nodes/<h>/pci-devices.txt  <sysfs>/bus/pci/devices/*/class (built in)

}  // namespace gpuconform::pci_devices
