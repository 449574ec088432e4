// NcclTopology checks: does the topology NCCL detected (or was told, by a static
// NCCL_TOPO_FILE) match what the profile says the node is? A wrong topology throws no error:
// NCCL routes around the missing NVLinks or NICs and the collectives just run slowly.
// Pure: one node's topology, already read (probes/nccl_topo/nccl_topo_facts.h), + profile in,
// a judgement out; the harness names the case. NotApplicable says where the profile makes a
// check not apply: the harness skips it before the topology is read, and the suite's glue errs
// where the topology could not be read. A fact the file does not state (a bare static
// skeleton) is an error saying what is missing, never a pass.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/nccl_topo/nccl_topo_parse.h"

namespace gpuconform::nccl_topology {

using namespace gpuconform::nccl_topo;

inline constexpr char kSuite[] = "NcclTopology";

// The check names in report order.
const std::vector<std::string>& CheckNames();
// Why the profile makes `check` (one of CheckNames()) not apply, or nullopt when it applies.
std::optional<std::string> NotApplicable(const std::string& check, const Profile& profile);

GPUCONFORM_CHECK_NAME(GpuCount);
CheckResult CheckGpuCount(const std::string& node, const Topology& topology, const Profile& profile);
// Sum of <nvlink count> over targets of NVSwitch class, per GPU, == nvlink.links_per_gpu.
GPUCONFORM_CHECK_NAME(NvlinkCountPerGpu);
CheckResult CheckNvlinkCountPerGpu(const std::string& node, const Topology& topology, const Profile& profile);
// NICs == infiniband.rail_nics_per_node, speed >= rate_gbit_per_s, link layer, and gdr=1
// where nccl.gpudirect_rdma.
GPUCONFORM_CHECK_NAME(NicCountSpeedGdr);
CheckResult CheckNicCountSpeedGdr(const std::string& node, const Topology& topology, const Profile& profile);
// Every GPU has a NIC in its PCIe switch tree (NCCL's PIX/PXB), hence on its NUMA node.
GPUCONFORM_CHECK_NAME(GpuHasNicUnderPcieSwitch);
CheckResult CheckGpuHasNicUnderPcieSwitch(const std::string& node, const Topology& topology);

}  // namespace gpuconform::nccl_topology
