// The aer probe: every PCI device's Advanced Error Reporting counters from sysfs,
// <sysfs>/bus/pci/devices/<addr>/aer_dev_{correctable,nonfatal,fatal} (RunOptions::sysfs_root,
// GPUCONFORM_SYSFS_ROOT, stands in for /sys in tests), with each device's class, vendor and
// the bridge above it, as record lines (pcie_aer_parse.h). Cheap and passive: fit for the
// Slurm health check. A node whose devices have no AER (a VM, veth, the local cluster)
// answers with none.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::pcie_aer {

RawOutput AerOutput(const LiveContext& context);

// nodes/<h>/aer.txt
const ProbeSpec& AerProbe();

}  // namespace gpuconform::pcie_aer
