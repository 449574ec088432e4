// InfiniBand suite checks: the node's rail NICs are there, each port Active / LinkUp at the
// profile's rate, and (where the profile asks) each GPU has a rail NIC under its own PCIe
// switch. Rails are the ports of the profile's link layer; management and front-end
// Ethernet ports are not rails and are never judged as such. Pure: parsed port listings and
// topology (or why there are none) + profile in, one CheckResult per node out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/result.h"
#include "harness/verdict.h"
#include "probes/ib_tools/ib_tools_parse.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

namespace gpuconform::infiniband {

using namespace gpuconform::ib_tools;
using namespace gpuconform::nvidia_smi;

inline constexpr char kSuite[] = "InfiniBand";
inline constexpr char kRailNicsPresent[] = "RailNicsPresent";
inline constexpr char kPortsActiveAtRate[] = "PortsActiveAtRate";
inline constexpr char kGpuHasLocalRailNic[] = "GpuHasLocalRailNic";

// The count of rail ports equals infiniband.rail_nics_per_node.
// Where the port listing is unavailable, `topo_nic_count` (every NIC `nvidia-smi topo -m`
// lists, of any link layer) still decides: fewer NICs in all than the profile's rails is a
// failure naming that source, never an error.
CheckResult CheckRailNicsPresent(const std::string& node, const Result<IbPortReport>& ports, const Profile& profile,
                                 std::optional<int> topo_nic_count = std::nullopt);

// Every rail port is State Active, Physical state LinkUp, Rate == infiniband.rate_gbit_per_s.
CheckResult CheckPortsActiveAtRate(const std::string& node, const Result<IbPortReport>& ports, const Profile& profile);

// Every GPU has a rail NIC at PIX or PXB in nvidia-smi topo -m (infiniband.gpu_local_nic_required).
// `ports`, where readable, narrows the NICs to the rails named in the matrix's NIC Legend.
CheckResult CheckGpuHasLocalRailNic(const std::string& node, const Result<nvidia_smi::TopoMatrix>& matrix,
                                    const Result<IbPortReport>& ports, const Profile& profile);

}  // namespace gpuconform::infiniband
