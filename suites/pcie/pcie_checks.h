// Pcie suite checks: every GPU's and rail NIC's PCIe link trained at its maximum generation and width. A
// link that came up as x8 or Gen3 halves or quarters host-device copies and GPUDirect RDMA,
// and nothing else in a job's logs says so. Pure: parsed nvidia-smi -q -x (or why there is
// none) + profile in, one CheckResult per node out.
#pragma once

#include <string>

#include "harness/profile.h"
#include "harness/result.h"
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

// Each GPU's current PCIe generation and width equal the maximum the link supports.
CheckResult CheckLinksAtMaxGenAndWidth(const std::string& node, const Result<GpuInventory>& inventory,
                                       const Profile& profile);

// Each rail NIC's current PCIe generation and width equal its maximum (sysfs). The rails are
// the profile's (infiniband.rail_nics_per_node ports of its link layer) where the port listing
// is readable; without one, every RDMA NIC sysfs lists is judged.
CheckResult CheckNicLinksAtMaxGenAndWidth(const std::string& node, const Result<NicPcieReport>& nics,
                                          const Result<ib_tools::IbPortReport>& ports, const Profile& profile);

}  // namespace gpuconform::pcie
