// NcclTopology.TopoFileMatchesNode: a static NCCL_TOPO_FILE the run's environment sets must
// describe this node. NCCL trusts the file over its own detection, so a file written for
// another machine type (other bus ids, a GPU where the node has a NIC) silently gives wrong
// paths and collapsed bandwidth. Every <pci busid> in the file (GPUs and NICs sit inside
// them) must exist among the node's live PCI devices with the same class, and the same
// vendor and device ids where the file states them. Virtual switches (domain ffff) are
// skipped: they exist only in files. Pure: the file and the node's devices, already read
// (probes/nccl_topo/nccl_topo_facts.h, probes/pci_devices/pci_devices_facts.h), in; a
// judgement out. The suite's glue skips the check where NCCL_TOPO_FILE is not set and errs
// where either could not be read.
#pragma once

#include <string>

#include "harness/core/verdict.h"
#include "probes/nccl_topo/nccl_topo_parse.h"
#include "probes/pci_devices/pci_devices.h"

namespace gpuconform::nccl_topology {

using namespace gpuconform::nccl_topo;
using namespace gpuconform::pci_devices;

GPUCONFORM_CHECK_NAME(TopoFileMatchesNode);

// The file against the node's devices; messages name the file by its origin.
CheckResult CheckTopoFileMatchesNode(const std::string& node, const Topology& file, const LivePciDevices& live);

}  // namespace gpuconform::nccl_topology
