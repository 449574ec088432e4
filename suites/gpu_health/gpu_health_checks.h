// GpuHealth suite checks: the per-GPU health AzNHC, DCGM and gpud judge before a node takes
// jobs - ECC mode and error counts, row remapping and page retirement, clock slowdowns,
// persistence mode, the GPUs at their PCIe addresses, and the XIDs of the kernel log. Pure:
// the parsed nvidia-smi -q (XML or text form; or why there is none), the parsed kernel log and
// the profile in, one CheckResult per node out. Without GPUs in the profile, or without its
// gpu_health section, each check is skipped saying so.
#pragma once

#include <string>

#include "harness/profile.h"
#include "harness/result.h"
#include "harness/verdict.h"
#include "probes/kernel_log/kernel_log_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::gpu_health {

using nvidia_smi::GpuInventory;

inline constexpr char kSuite[] = "GpuHealth";
inline constexpr char kEccEnabled[] = "EccEnabled";
inline constexpr char kNoVolatileUncorrectableEcc[] = "NoVolatileUncorrectableEcc";
inline constexpr char kSramEccHealthy[] = "SramEccHealthy";
inline constexpr char kAggregateEccWithinLimits[] = "AggregateEccWithinLimits";
inline constexpr char kRowRemappingHealthy[] = "RowRemappingHealthy";
inline constexpr char kRetiredPagesHealthy[] = "RetiredPagesHealthy";
inline constexpr char kNoClockSlowdown[] = "NoClockSlowdown";
inline constexpr char kPersistenceMode[] = "PersistenceMode";
inline constexpr char kGpusAtExpectedPcieAddresses[] = "GpusAtExpectedPcieAddresses";
inline constexpr char kNoHardwareXids[] = "NoHardwareXids";

// ECC mode Enabled on every GPU, where gpu_health.ecc_required.
CheckResult CheckEccEnabled(const std::string& node, const Result<GpuInventory>& inventory, const Profile& profile);
// No uncorrectable (SRAM or DRAM) ECC error since the driver loaded.
CheckResult CheckNoVolatileUncorrectableEcc(const std::string& node, const Result<GpuInventory>& inventory,
                                            const Profile& profile);
// No uncorrectable SRAM error (volatile or aggregate), SRAM threshold not exceeded, SRAM
// correctable counts within gpu_health.aggregate_sram_correctable_max.
CheckResult CheckSramEccHealthy(const std::string& node, const Result<GpuInventory>& inventory, const Profile& profile);
// DRAM correctable and uncorrectable counts (volatile and aggregate) within
// gpu_health.aggregate_dram_errors_max.
CheckResult CheckAggregateEccWithinLimits(const std::string& node, const Result<GpuInventory>& inventory,
                                          const Profile& profile);
// No remapping failure, no remap pending a reset, uncorrectable remaps within the limit. A GPU
// that reports page retirement instead (before Ampere) passes here; RetiredPagesHealthy judges it.
CheckResult CheckRowRemappingHealthy(const std::string& node, const Result<GpuInventory>& inventory,
                                     const Profile& profile);
// No page retirement pending, retired pages within gpu_health.retired_pages_max. A GPU that
// remaps rows instead (Ampere and later, retired pages N/A) passes here.
CheckResult CheckRetiredPagesHealthy(const std::string& node, const Result<GpuInventory>& inventory,
                                     const Profile& profile);
// No HW slowdown, HW thermal slowdown, HW power brake or SW thermal slowdown clock event.
CheckResult CheckNoClockSlowdown(const std::string& node, const Result<GpuInventory>& inventory,
                                 const Profile& profile);
// Persistence mode as gpu_health.persistence_mode_enabled says, on every GPU.
CheckResult CheckPersistenceMode(const std::string& node, const Result<GpuInventory>& inventory,
                                 const Profile& profile);
// Every GPU nvidia-smi names can be opened; every address in gpu_health.pcie_bus_ids holds a
// GPU, or, without that list, the node has gpu.count_per_node GPUs. A GPU lost from the bus is
// named by its bus id (from nvidia-smi or the kernel log).
CheckResult CheckGpusAtExpectedPcieAddresses(const std::string& node, const Result<GpuInventory>& inventory,
                                             const Result<kernel_log::KernelLog>& log, const Profile& profile);
// No XID that NVIDIA attributes to hardware or to the driver/firmware in the kernel log since
// boot; application XIDs (13, 31, 43, 45) and unlisted ones are counted, not failed.
CheckResult CheckNoHardwareXids(const std::string& node, const Result<kernel_log::KernelLog>& log,
                                const Profile& profile);

}  // namespace gpuconform::gpu_health
