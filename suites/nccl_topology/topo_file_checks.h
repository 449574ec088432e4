// NcclTopology.TopoFileMatchesNode: a static NCCL_TOPO_FILE the run's environment sets must
// describe this node. NCCL trusts the file over its own detection, so a file written for
// another machine type (other bus ids, a GPU where the node has a NIC) silently gives wrong
// paths and collapsed bandwidth. Every <pci busid> in the file (GPUs and NICs sit inside
// them) must exist among the node's live PCI devices with the same class, and the same
// vendor and device ids where the file states them. Virtual switches (domain ffff) are
// skipped: they exist only in files. Pure: the two raw outputs in, one CheckResult out.
#pragma once

#include <string>

#include "harness/probe.h"
#include "harness/verdict.h"
#include "probes/nccl_topo/nccl_topo_parse.h"
#include "probes/pci_devices/pci_devices.h"

namespace gpuconform::nccl_topology {

using namespace gpuconform::nccl_topo;
using namespace gpuconform::pci_devices;

inline constexpr char kTopoFileMatchesNode[] = "TopoFileMatchesNode";

// The file (parsed) against the node's devices; `file_origin` names the file in messages.
CheckResult CheckTopoFileMatchesNode(const std::string& node, const std::string& file_origin, const Topology& file,
                                     const LivePciDevices& live);

// From the probes' raw outputs: skipped when NCCL_TOPO_FILE is not set (the file probe is
// absent), an error when either output is missing or unreadable, else the comparison.
CheckResult JudgeTopoFile(const std::string& node, const RawOutput& topo_file, const RawOutput& pci_devices);

}  // namespace gpuconform::nccl_topology
