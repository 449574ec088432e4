// InfiniBand suite checks: the node's rail NICs are there, each port Active / LinkUp at the
// profile's rate, and (where the profile asks) each GPU has a rail NIC under its own PCIe
// switch. Rails are the ports of the profile's link layer; management and front-end
// Ethernet ports are not rails and are never judged as such. Pure: the node's port listing
// (facts/ib_port_facts.h) and topology matrix, already read, + profile in, one judgement per
// node out. A profile without InfiniBand (or, for GpuHasLocalRailNic, without GPUs or without
// the requirement) makes a check inapplicable: the suite skips it before reading anything
// (InfinibandSkipReason, GpuLocalNicSkipReason).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/counter_history.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/ib_counters/ib_counters_parse.h"
#include "probes/ib_tools/ib_tools_parse.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

namespace gpuconform::infiniband {

using namespace gpuconform::ib_tools;
using namespace gpuconform::nvidia_smi;

inline constexpr char kSuite[] = "InfiniBand";
GPUCONFORM_CHECK_NAME(RailNicsPresent);
GPUCONFORM_CHECK_NAME(PortsActiveAtRate);
GPUCONFORM_CHECK_NAME(GpuHasLocalRailNic);
GPUCONFORM_CHECK_NAME(PortErrorCountersWithinLimits);

// Why the checks do not apply: the profile has no InfiniBand. nullopt when they apply.
std::optional<std::string> InfinibandSkipReason(const Profile& profile);
// GpuHasLocalRailNic's: as InfinibandSkipReason, or the profile has no GPUs, or does not
// require a rail NIC per GPU.
std::optional<std::string> GpuLocalNicSkipReason(const Profile& profile);

// The count of rail ports equals infiniband.rail_nics_per_node.
CheckResult CheckRailNicsPresent(const std::string& node, const IbPortReport& ports, const Profile& profile);
// RailNicsPresent where the port listing could not be read (`unread` says why):
// `topo_nic_count` (every NIC `nvidia-smi topo -m` lists, of any link layer, where it was read)
// still decides: fewer NICs in all than the profile's rails is a failure naming that source;
// otherwise the check is an error, unavailable, quoting `unread`.
CheckResult CheckRailNicsWithoutPortListing(const std::string& node, const std::string& unread, const Profile& profile,
                                            std::optional<int> topo_nic_count);

// Every rail port is State Active, Physical state LinkUp, Rate == infiniband.rate_gbit_per_s.
CheckResult CheckPortsActiveAtRate(const std::string& node, const IbPortReport& ports, const Profile& profile);

// Every GPU has a rail NIC at PIX or PXB in nvidia-smi topo -m (infiniband.gpu_local_nic_required).
// `ports`, where the listing was read (else null), narrows the NICs to the rails named in the
// matrix's NIC Legend.
CheckResult CheckGpuHasLocalRailNic(const std::string& node, const nvidia_smi::TopoMatrix& matrix,
                                    const IbPortReport* ports, const Profile& profile);

// Every RDMA port's error counters at or below their limits (ib_counters::KnownCounters, with
// kDefaultLimitSource), one finding per port and kind of fault: the signal (symbol errors,
// recoveries, integrity: recable, hardware), the link going down (hardware), or packets
// discarded (congestion or routing, configuration: never blamed on the cable). A saturated
// counter is reported as "at least"; PortXmitWait is load, recorded and never judged; a
// switch's port ALL aggregate repeats its ports and is not judged again.
// Each non-zero counter is recorded (harness/core/counter_history.h's convention). Where `previous`
// holds the node's last reading in the history, each counter's rise is judged as a rate
// against `rates` (signal errors and link downs, discards): a link whose counter rises faster
// than its limit fails with ib-link-error-rate even when its count is within the count limit;
// a counter that went down (cleared, rebooted) or saturated says so and is not judged.
CheckResult CheckPortErrorCounters(const std::string& node, const ib_counters::CounterReport& report,
                                   const LinkCounterRates& rates = {}, const NodeCounterReadings* previous = nullptr);

}  // namespace gpuconform::infiniband
