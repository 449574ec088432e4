// GpuHealth suite glue: the node's nvidia-smi -q (the -x form, else the text form a snapshot
// may hold instead) and kernel log, each parsed once, judged per node; and the registration.
#include "facts/gpu_facts.h"
#include "harness/raw_text.h"
#include "harness/suite_registry.h"
#include "probes/kernel_log/kernel_log_parse.h"
#include "probes/kernel_log/kernel_log_probe.h"
#include "probes/nvidia_smi/query_text_parse.h"
#include "suites/gpu_health/gpu_health_checks.h"

namespace gpuconform::gpu_health {

namespace {

std::string OriginOf(const RawOutput& out, const std::string& node, const ProbeSpec& spec) {
  return out.origin.empty() ? node + "/" + spec.file : out.origin;
}

Result<GpuInventory> ParseHealthInventory(const ClusterRaw& raw, const std::string& node) {
  const RawOutput xml = raw.NodeOutput(node, nvidia_smi::NvidiaSmiQueryXml().id);
  if (xml.ok()) return facts::ReadNvidiaSmiQuery(raw, node);
  const ProbeSpec text_spec = nvidia_smi::NvidiaSmiQueryText();
  const RawOutput text = raw.NodeOutput(node, text_spec.id);
  if (text.ok()) return nvidia_smi::ParseNvidiaSmiQueryText(text.text, OriginOf(text, node, text_spec));
  // nvidia-smi exits non-zero when it cannot open a GPU; the GPU it names is still a fact.
  const std::vector<std::string> lost = nvidia_smi::FindInaccessibleGpus(xml.text + "\n" + xml.detail);
  if (!lost.empty() && !nvidia_smi::FindSmiFailure(xml.text)) {
    GpuInventory inventory;
    inventory.inaccessible_bus_ids = lost;
    return inventory;
  }
  return facts::ReadNvidiaSmiQuery(raw, node);  // its error names the node, the file and the cause
}

Result<GpuInventory> ReadHealthInventory(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<GpuInventory>>("gpu-health-inventory", node,
                                             [&] { return ParseHealthInventory(raw, node); });
}

Result<kernel_log::KernelLog> ReadKernelLog(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<kernel_log::KernelLog>>("kernel-log", node, [&]() -> Result<kernel_log::KernelLog> {
    const ProbeSpec& spec = kernel_log::KernelLogProbe();
    const RawOutput out = raw.NodeOutput(node, spec.id);
    auto text = UsableText(out, node, spec.file, "neither dmesg nor journalctl is installed");
    if (!text) return Error{text.error()};
    return kernel_log::ParseKernelLog(*text, OriginOf(out, node, spec));
  });
}

using InventoryCheck = CheckResult (*)(const std::string&, const Result<GpuInventory>&, const Profile&);

CheckDefinition InventoryCheckDefinition(const char* name, const char* requirement, InventoryCheck check) {
  return {name, requirement, true, [check](const SuiteContext& c, const std::string& node) {
            return check(node, ReadHealthInventory(c.raw, node), c.profile);
          }};
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "each GPU's ECC, row remapping, clocks, persistence and bus presence, and the kernel log's XIDs",
      .checks =
          {
              InventoryCheckDefinition(kEccEnabled, "ECC is enabled on every GPU where the profile requires it",
                                       CheckEccEnabled),
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
              {kGpusAtExpectedPcieAddresses, "every GPU answers at its PCIe address; none has fallen off the bus", true,
               [](const SuiteContext& c, const std::string& node) {
                 return CheckGpusAtExpectedPcieAddresses(node, ReadHealthInventory(c.raw, node),
                                                         ReadKernelLog(c.raw, node), c.profile);
               }},
              {kNoHardwareXids, "the kernel log has no hardware or driver XID since boot", true,
               [](const SuiteContext& c, const std::string& node) {
                 return CheckNoHardwareXids(node, ReadKernelLog(c.raw, node), c.profile);
               }},
          },
      .probes = JoinProbes({{nvidia_smi::NvidiaSmiQueryXml(), nvidia_smi::NvidiaSmiQueryText(), kernel_log::KernelLogProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::gpu_health
