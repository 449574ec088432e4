// InfiniBand suite checks: the node's rail NICs are there, each port Active / LinkUp at the
// profile's rate, and (where the profile asks) each GPU has a rail NIC under its own PCIe
// switch. Rails are the ports of the profile's link layer; management and front-end
// Ethernet ports are not rails and are never judged as such. Pure: parsed port listings and
// topology (or why there are none) + profile in, one CheckResult per node out.
#pragma once

#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/result.h"
#include "harness/verdict.h"
#include "suites/infiniband/infiniband_parse.h"
#include "suites/nvswitch/nvswitch_parse.h"

namespace gpuconform::infiniband {

inline constexpr char kSuite[] = "InfiniBand";
inline constexpr char kRailNicsPresent[] = "RailNicsPresent";
inline constexpr char kPortsActiveAtRate[] = "PortsActiveAtRate";
inline constexpr char kGpuHasLocalRailNic[] = "GpuHasLocalRailNic";

// The rail ports: those whose link layer is the profile's. On a RoCE profile (Ethernet) the
// front-end NICs share the link layer, so when there are more such ports than rails, the
// rails are the ports of the HCA model (CA type) that holds the most of them.
std::vector<const IbPort*> RailPorts(const IbPortReport& report, const InfinibandExpectation& expected);

// The count of rail ports equals infiniband.rail_nics_per_node.
CheckResult CheckRailNicsPresent(const std::string& node, const Result<IbPortReport>& ports, const Profile& profile);

// Every rail port is State Active, Physical state LinkUp, Rate == infiniband.rate_gbit_per_s.
CheckResult CheckPortsActiveAtRate(const std::string& node, const Result<IbPortReport>& ports, const Profile& profile);

// Every GPU has a rail NIC at PIX or PXB in nvidia-smi topo -m (infiniband.gpu_local_nic_required).
// `ports`, where readable, narrows the NICs to the rails named in the matrix's NIC Legend.
CheckResult CheckGpuHasLocalRailNic(const std::string& node, const Result<nvswitch::TopoMatrix>& matrix,
                                    const Result<IbPortReport>& ports, const Profile& profile);

}  // namespace gpuconform::infiniband
