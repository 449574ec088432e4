// GpuHealth suite checks: the per-GPU health AzNHC, DCGM and gpud judge before a node takes
// jobs - ECC mode and error counts, row remapping and page retirement, clock slowdowns,
// persistence mode, the GPUs at their PCIe addresses, and the XIDs of the kernel log. Pure:
// the node's GPU health inventory (facts::ReadGpuHealth: nvidia-smi -q, XML or text form) and
// its parsed kernel log, both already read, and the profile in, one judgement per node out.
// Without GPUs in the profile, or without its gpu_health section, the checks do not apply
// (GpuHealthSkipReason): the suite skips them before reading anything, so a check is judged
// only under a profile with both.
#pragma once

#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/kernel_log/gpu_health_profile.h"
#include "probes/kernel_log/kernel_log_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::gpu_health {

using nvidia_smi::GpuInventory;

inline constexpr char kSuite[] = "GpuHealth";
GPUCONFORM_CHECK_NAME(EccEnabled);
GPUCONFORM_CHECK_NAME(NoVolatileUncorrectableEcc);
GPUCONFORM_CHECK_NAME(SramEccHealthy);
GPUCONFORM_CHECK_NAME(AggregateEccWithinLimits);
GPUCONFORM_CHECK_NAME(RowRemappingHealthy);
GPUCONFORM_CHECK_NAME(RetiredPagesHealthy);
GPUCONFORM_CHECK_NAME(NoClockSlowdown);
GPUCONFORM_CHECK_NAME(PersistenceMode);
GPUCONFORM_CHECK_NAME(GpusAtExpectedPcieAddresses);
GPUCONFORM_CHECK_NAME(NoHardwareXids);

// Why the checks do not apply under `profile` (it expects no GPUs, or has no gpu_health section
// and so states no limits), or nullopt when they apply.
std::optional<std::string> GpuHealthSkipReason(const Profile& profile);
// EccEnabled's: as GpuHealthSkipReason, and also where the profile does not require ECC.
std::optional<std::string> EccEnabledSkipReason(const Profile& profile);

// ECC mode Enabled on every GPU, where gpu_health.ecc_required.
CheckResult CheckEccEnabled(const std::string& node, const GpuInventory& inventory, const Profile& profile);
// No uncorrectable (SRAM or DRAM) ECC error since the driver loaded.
CheckResult CheckNoVolatileUncorrectableEcc(const std::string& node, const GpuInventory& inventory,
                                            const Profile& profile);
// No uncorrectable SRAM error (volatile or aggregate), SRAM threshold not exceeded, SRAM
// correctable counts within gpu_health.aggregate_sram_correctable_max.
CheckResult CheckSramEccHealthy(const std::string& node, const GpuInventory& inventory, const Profile& profile);
// DRAM correctable and uncorrectable counts (volatile and aggregate) within
// gpu_health.aggregate_dram_errors_max.
CheckResult CheckAggregateEccWithinLimits(const std::string& node, const GpuInventory& inventory,
                                          const Profile& profile);
// No remapping failure, no remap pending a reset, uncorrectable remaps within the limit. A GPU
// that reports page retirement instead (before Ampere) passes here; RetiredPagesHealthy judges it.
CheckResult CheckRowRemappingHealthy(const std::string& node, const GpuInventory& inventory,
                                     const Profile& profile);
// No page retirement pending, retired pages within gpu_health.retired_pages_max. A GPU that
// remaps rows instead (Ampere and later, retired pages N/A) passes here.
CheckResult CheckRetiredPagesHealthy(const std::string& node, const GpuInventory& inventory,
                                     const Profile& profile);
// No HW slowdown, HW thermal slowdown, HW power brake or SW thermal slowdown clock event.
CheckResult CheckNoClockSlowdown(const std::string& node, const GpuInventory& inventory,
                                 const Profile& profile);
// Persistence mode as gpu_health.persistence_mode_enabled says, on every GPU.
CheckResult CheckPersistenceMode(const std::string& node, const GpuInventory& inventory,
                                 const Profile& profile);
// Every GPU nvidia-smi names can be opened; every address in gpu_health.pcie_bus_ids holds a
// GPU, or, without that list, the node has gpu.count_per_node GPUs. A GPU lost from the bus is
// named by its bus id (from nvidia-smi or the kernel log; `log` is null where it could not be read).
CheckResult CheckGpusAtExpectedPcieAddresses(const std::string& node, const GpuInventory& inventory,
                                             const kernel_log::KernelLog* log, const Profile& profile);
// No XID that NVIDIA attributes to hardware or to the driver/firmware in the kernel log since
// boot; application XIDs (13, 31, 43, 45) and unlisted ones are counted, not failed.
CheckResult CheckNoHardwareXids(const std::string& node, const kernel_log::KernelLog& log, const Profile& profile);

}  // namespace gpuconform::gpu_health
