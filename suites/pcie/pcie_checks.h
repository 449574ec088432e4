// Pcie suite checks: every GPU's and rail NIC's PCIe link trained at its maximum generation and width. A
// link that came up as x8 or Gen3 halves or quarters host-device copies and GPUDirect RDMA,
// and nothing else in a job's logs says so. Pure: the node's GPU inventory (facts::
// ReadGpuInventory: NVML or nvidia-smi -q -x) or its NICs' links (sysfs) and port listing, all
// already read, + profile in, one judgement per node out. A profile without GPUs, or without
// InfiniBand, makes a check inapplicable: the suite skips it before reading anything
// (GpuLinksSkipReason, NicLinksSkipReason).
#pragma once

#include <optional>
#include <string>

#include "harness/profile.h"
#include "harness/verdict.h"
#include "probes/ib_tools/ib_tools_parse.h"
#include "probes/nic_pcie/nic_pcie_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::pcie {

using namespace gpuconform::ib_tools;
using namespace gpuconform::nic_pcie;
using namespace gpuconform::nvidia_smi;

inline constexpr char kSuite[] = "Pcie";
inline constexpr char kLinksAtMaxGenAndWidth[] = "LinksAtMaxGenAndWidth";
inline constexpr char kNicLinksAtMaxGenAndWidth[] = "NicLinksAtMaxGenAndWidth";

// Why LinksAtMaxGenAndWidth does not apply: the profile expects no GPUs. nullopt when it applies.
std::optional<std::string> GpuLinksSkipReason(const Profile& profile);
// Why NicLinksAtMaxGenAndWidth does not apply: the profile has no InfiniBand, so no rail NIC.
std::optional<std::string> NicLinksSkipReason(const Profile& profile);

// Each GPU's current PCIe generation and width equal the maximum the link supports.
CheckResult CheckLinksAtMaxGenAndWidth(const std::string& node, const GpuInventory& inventory, const Profile& profile);

// Each rail NIC's current PCIe generation and width equal its maximum (sysfs). The rails are
// the profile's (infiniband.rail_nics_per_node ports of its link layer) where the port listing
// was read (`ports`); without one (null), every RDMA NIC sysfs lists is judged.
CheckResult CheckNicLinksAtMaxGenAndWidth(const std::string& node, const NicPcieReport& nics,
                                          const ib_tools::IbPortReport* ports, const Profile& profile);

}  // namespace gpuconform::pcie
