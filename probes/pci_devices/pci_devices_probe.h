// The pci-devices probe: the node's PCI devices, listed in process from sysfs
// (PciDevicesOutput; pci_devices.h reads the list). Its snapshot file
// name is part of the snapshot layout v1 contract.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::pci_devices {

ProbeSpec PciDevices();  // nodes/<h>/pci-devices.txt  <sysfs>/bus/pci/devices/*/class (built in)

// The node's PCI devices from <sysfs>/bus/pci/devices (sysfs: RunOptions::sysfs_root)/*/{class,vendor,device}, one a line,
// sorted: "0000:18:00.0 0x030200 0x10de 0x2330". kToolMissing naming the directory when it
// does not exist (no PCI sysfs: not Linux, or /sys not mounted in the container).
RawOutput PciDevicesOutput(const LiveContext& context);

}  // namespace gpuconform::pci_devices
