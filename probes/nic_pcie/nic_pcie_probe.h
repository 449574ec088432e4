// The NIC PCIe probe: nodes/<h>/nic-pcie.txt (format in nic_pcie_parse.h), read from sysfs:
// for each /sys/class/infiniband/<dev>, the PCI function its device link points at and that
// function's current_link_{speed,width} and max_link_{speed,width}. The sysfs root is
// RunOptions::sysfs_root (GPUCONFORM_SYSFS_ROOT: a directory standing in for /sys, so a test
// can build a fake tree), else /sys. Contract: always kOk; a node without RDMA devices lists none (device_count=0),
// and a file that cannot be read leaves out its field.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::nic_pcie {

RawOutput NicPcieOutput(const LiveContext& context);
const ProbeSpec& NicPcieProbe();  // id "nic-pcie", file "nic-pcie.txt", built in

}  // namespace gpuconform::nic_pcie
