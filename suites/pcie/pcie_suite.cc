// Pcie suite glue: the checks, judged per node from the GPU facts (NVML or nvidia-smi -q -x),
// and from the NIC links (sysfs) and the port listing, each read before the check and skipped
// before any read where the profile makes the check inapplicable; the AER counters (aer.txt)
// with the kernel log and the GPU facts where they could be read (they only add to the
// judgement: the log's reports, the GPUs' indexes); and the registration.
#include "facts/gpu_facts.h"
#include "facts/ib_port_facts.h"
#include "harness/core/suite_registry.h"
#include "probes/kernel_log/kernel_log_facts.h"
#include "probes/kernel_log/kernel_log_probe.h"
#include "probes/nic_pcie/nic_pcie_facts.h"
#include "probes/nic_pcie/nic_pcie_probe.h"
#include "probes/pci_devices/pci_devices.h"
#include "probes/pcie_aer/pcie_aer_facts.h"
#include "probes/pcie_aer/pcie_aer_probe.h"
#include "suites/pcie/pcie_checks.h"

namespace gpuconform::pcie {

using namespace gpuconform::facts;
using namespace gpuconform::nic_pcie;
using namespace gpuconform::nvidia_smi;

namespace {

// "0000:18:00.0" -> "GPU 0" from the node's GPU facts; empty where they could not be read.
std::map<std::string, std::string> GpuNames(const SuiteContext& context, const std::string& node) {
  std::map<std::string, std::string> names;
  const auto& inventory = ReadGpuInventory(context.raw, node);
  if (!inventory) return names;
  for (const auto& gpu : inventory->gpus) {
    if (const auto address = pci_devices::CanonicalBusId(gpu.bus_id)) names[*address] = "GPU " + std::to_string(gpu.index);
  }
  return names;
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "every GPU's and rail NIC's PCIe link at its maximum generation and width, AER error counters "
               "within limits",
    .checks = {
        {.name = kLinksAtMaxGenAndWidth,
         .requirement = "each GPU's current PCIe generation and width equal its maximum",
         .per_node = true,
         .judge = ReadThenJudge(
             [](const SuiteContext& c, const std::string& node) -> decltype(auto) { return ReadGpuInventory(c.raw, node); },
             [](const GpuInventory& inventory, const SuiteContext& c, const std::string& node) {
               return CheckLinksAtMaxGenAndWidth(node, inventory, c.profile);
             }),
         .not_applicable = [](const SuiteContext& c, const std::string&) { return GpuLinksSkipReason(c.profile); }},
        // The port listing only narrows the NICs to the rails: one that cannot be read is no error here.
        {.name = kNicLinksAtMaxGenAndWidth,
         .requirement = "each rail NIC's current PCIe generation and width equal its maximum (sysfs)",
         .per_node = true,
         .judge = ReadThenJudge(
             [](const SuiteContext& c, const std::string& node) -> decltype(auto) { return ReadNicPcie(c.raw, node); },
             [](const NicPcieReport& nics, const SuiteContext& c, const std::string& node) {
               const auto& ports = ReadPorts(c.raw, node);
               return CheckNicLinksAtMaxGenAndWidth(node, nics, ports ? &*ports : nullptr, c.profile);
             }),
         .not_applicable = [](const SuiteContext& c, const std::string&) { return NicLinksSkipReason(c.profile); }},
        // The kernel log and the GPU facts only add to the counters: one that cannot be read is no error here.
        {.name = kAerErrorsWithinLimits,
         .requirement = "each PCIe device's AER counters within limits (no fatal or non-fatal error, few correctable) "
                        "and no uncorrected AER report (Surprise Down) in the kernel log",
         .per_node = true,
         .judge = ReadThenJudge(
             [](const SuiteContext& c, const std::string& node) -> decltype(auto) {
               return pcie_aer::ReadAer(c.raw, node);
             },
             [](const pcie_aer::AerReport& counters, const SuiteContext& c, const std::string& node) {
               const auto& log = kernel_log::ReadKernelLog(c.raw, node);
               return CheckAerErrorsWithinLimits(node, counters, log ? &*log : nullptr, GpuNames(c, node),
                                                 AerLimitsOf(c.profile.link_counters), c.profile.link_counters,
                                                 c.counter_history.Of(node));
             }),
         .not_applicable = [](const SuiteContext& c, const std::string&) { return AerSkipReason(c.profile); }},
    },
    .probes = JoinProbes({GpuFactProbes(), PortProbes(), {NicPcieProbe(), pcie_aer::AerProbe(), kernel_log::KernelLogProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::pcie
