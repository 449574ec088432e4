// Typed reader of a node's live PCI devices (pci-devices.txt), parsed once per run (cached in
// the run's facts). Pure: the run's raw outputs in. An error is the probe's own detail where
// the list was not obtained, else the parser's error naming origin and line.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/pci_devices/pci_devices.h"

namespace gpuconform::pci_devices {

const Result<LivePciDevices>& ReadPciDevices(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::pci_devices
