// Pcie suite checks: every GPU's and rail NIC's PCIe link trained at its maximum generation and width. A
// link that came up as x8 or Gen3 halves or quarters host-device copies and GPUDirect RDMA,
// and nothing else in a job's logs says so. Pure: the node's GPU inventory (facts::
// ReadGpuInventory: NVML or nvidia-smi -q -x) or its NICs' links (sysfs) and port listing, all
// already read, + profile in, one judgement per node out. A profile without GPUs, or without
// InfiniBand, makes a check inapplicable: the suite skips it before reading anything
// (GpuLinksSkipReason, NicLinksSkipReason). AerErrorsWithinLimits judges each device's PCIe
// Advanced Error Reporting counters (aer.txt) and the kernel log's AER reports, so a node
// whose GPU or NIC link logs errors is named before the link fails.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "harness/core/counter_history.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/ib_tools/ib_tools_parse.h"
#include "probes/kernel_log/kernel_log_parse.h"
#include "probes/nic_pcie/nic_pcie_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "probes/pcie_aer/pcie_aer_parse.h"

namespace gpuconform::pcie {

using namespace gpuconform::ib_tools;
using namespace gpuconform::nic_pcie;
using namespace gpuconform::nvidia_smi;

inline constexpr char kSuite[] = "Pcie";
GPUCONFORM_CHECK_NAME(LinksAtMaxGenAndWidth);
GPUCONFORM_CHECK_NAME(NicLinksAtMaxGenAndWidth);
GPUCONFORM_CHECK_NAME(AerErrorsWithinLimits);

// The limits of AerErrorsWithinLimits: any fatal or non-fatal error fails; correctable errors
// (the link layer replayed what went wrong) fail above `correctable` since boot.
inline constexpr std::uint64_t kDefaultCorrectableLimit = 100;
inline constexpr char kAerLimitSource[] =
    "gpuconform's default: 0 uncorrectable (fatal or non-fatal) errors, as the PCIe spec makes them lost or "
    "poisoned transactions; at most 100 correctable errors per device since boot - the link layer corrects "
    "them by replay and a few follow resets and power-state changes, while a sound data-centre link counts "
    "none for weeks (the kernel's Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats sets no "
    "threshold); a strict policy sets 0";
struct AerLimits {
  std::uint64_t correctable = kDefaultCorrectableLimit;
  std::string source = kAerLimitSource;
};
// The profile's link_counters.count_limits.aer_correctable (with its source) where set, else the default.
AerLimits AerLimitsOf(const LinkCounterRates& rates);

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

// Why AerErrorsWithinLimits does not apply: the profile has neither GPUs nor InfiniBand, so no
// GPU or rail NIC link to watch. nullopt when it applies.
std::optional<std::string> AerSkipReason(const Profile& profile);

// Each device's AER counters within `limits` (one finding per device, coded by its worst
// severity: pcie-aer-fatal, pcie-aer-nonfatal, pcie-aer-correctable), and no uncorrected AER
// report in the kernel log (`log`, null where it could not be read): a Surprise Down blames
// the device below the port that logged it. Every non-zero counter is a measurement
// "<node>/<address>.aer_<severity>[_<error>]"; zeros are left out. `gpu_names` maps a
// canonical address ("0000:18:00.0") to "GPU 0" where the node's GPU facts were read. No
// device with AER and no AER report in the log: skipped, saying so. Where `previous` holds the
// node's last reading in the history, each device's correctable total is judged as a rate
// against rates.pcie_correctable_per_hour (pcie-aer-error-rate); lspci's flags are no counts and
// are not judged as rates.
CheckResult CheckAerErrorsWithinLimits(const std::string& node, const pcie_aer::AerReport& counters,
                                       const kernel_log::KernelLog* log,
                                       const std::map<std::string, std::string>& gpu_names,
                                       const AerLimits& limits = {}, const LinkCounterRates& rates = {},
                                       const NodeCounterReadings* previous = nullptr);

}  // namespace gpuconform::pcie
