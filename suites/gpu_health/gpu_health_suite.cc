// GpuHealth suite glue: the node's GPU health inventory (facts::ReadGpuHealth) and kernel log
// (kernel_log::ReadKernelLog), each read once, judged per node; and the registration.
#include "facts/gpu_facts.h"
#include "harness/core/suite_registry.h"
#include "probes/kernel_log/kernel_log_facts.h"
#include "probes/kernel_log/kernel_log_probe.h"
#include "suites/gpu_health/gpu_health_checks.h"

namespace gpuconform::gpu_health {

namespace {

using InventoryCheck = CheckResult (*)(const std::string&, const GpuInventory&, const Profile&);
using SkipReason = std::optional<std::string> (*)(const Profile&);

const Result<GpuInventory>& ReadInventory(const SuiteContext& context, const std::string& node) {
  return facts::ReadGpuHealth(context.raw, node);
}

CheckApplicability Unless(SkipReason reason) {
  return [reason](const SuiteContext& context, const std::string&) { return reason(context.profile); };
}

CheckDefinition InventoryCheckDefinition(const char* name, const char* requirement, InventoryCheck check,
                                         SkipReason skip = GpuHealthSkipReason) {
  return {.name = name,
          .requirement = requirement,
          .per_node = true,
          .judge = ReadThenJudge(ReadInventory,
                                 [check](const GpuInventory& inventory, const SuiteContext& c, const std::string& node) {
                                   return check(node, inventory, c.profile);
                                 }),
          .not_applicable = Unless(skip)};
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "each GPU's ECC, row remapping, clocks, persistence and bus presence, and the kernel log's XIDs",
      .checks =
          {
              InventoryCheckDefinition(kEccEnabled, "ECC is enabled on every GPU where the profile requires it",
                                       CheckEccEnabled, EccEnabledSkipReason),
              InventoryCheckDefinition(kNoVolatileUncorrectableEcc,
                                       "no GPU has an uncorrectable ECC error since the driver loaded",
                                       CheckNoVolatileUncorrectableEcc),
              InventoryCheckDefinition(kSramEccHealthy,
                                       "no uncorrectable SRAM error, and SRAM correctable errors within the limit",
                                       CheckSramEccHealthy),
              InventoryCheckDefinition(kAggregateEccWithinLimits,
                                       "each GPU's DRAM ECC error counts are within the profile's limit",
                                       CheckAggregateEccWithinLimits),
              InventoryCheckDefinition(kRowRemappingHealthy,
                                       "no row remapping failure, no remap pending a reset, remaps within the limit",
                                       CheckRowRemappingHealthy),
              InventoryCheckDefinition(kRetiredPagesHealthy,
                                       "no page retirement pending, retired pages within the limit (before Ampere)",
                                       CheckRetiredPagesHealthy),
              InventoryCheckDefinition(kNoClockSlowdown,
                                       "no GPU's clocks are held down by a hardware, thermal or power-brake event",
                                       CheckNoClockSlowdown),
              InventoryCheckDefinition(kPersistenceMode, "every GPU's persistence mode is as the profile says",
                                       CheckPersistenceMode),
              // The kernel log only adds to what the inventory says: one that cannot be read is no error here.
              {.name = kGpusAtExpectedPcieAddresses,
               .requirement = "every GPU answers at its PCIe address; none has fallen off the bus",
               .per_node = true,
               .judge = ReadThenJudge(ReadInventory,
                                      [](const GpuInventory& inventory, const SuiteContext& c, const std::string& node) {
                                        const auto& log = kernel_log::ReadKernelLog(c.raw, node);
                                        return CheckGpusAtExpectedPcieAddresses(node, inventory,
                                                                                log ? &*log : nullptr, c.profile);
                                      }),
               .not_applicable = Unless(GpuHealthSkipReason)},
              {.name = kNoHardwareXids,
               .requirement = "the kernel log has no hardware or driver XID since boot",
               .per_node = true,
               .judge = ReadThenJudge([](const SuiteContext& c, const std::string& node) -> decltype(auto) {
                                        return kernel_log::ReadKernelLog(c.raw, node);
                                      },
                                      [](const kernel_log::KernelLog& log, const SuiteContext& c,
                                         const std::string& node) { return CheckNoHardwareXids(node, log, c.profile); }),
               .not_applicable = Unless(GpuHealthSkipReason)},
          },
      .probes = JoinProbes({facts::GpuHealthProbes(), {kernel_log::KernelLogProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::gpu_health
