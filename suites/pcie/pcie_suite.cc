// Pcie suite glue: the checks, judged per node from the GPU facts (NVML or nvidia-smi -q -x),
// and from the NIC links (sysfs) and the port listing, each read before the check and skipped
// before any read where the profile makes the check inapplicable; and the registration.
#include "facts/gpu_facts.h"
#include "facts/ib_port_facts.h"
#include "harness/suite_registry.h"
#include "probes/nic_pcie/nic_pcie_facts.h"
#include "probes/nic_pcie/nic_pcie_probe.h"
#include "suites/pcie/pcie_checks.h"

namespace gpuconform::pcie {

using namespace gpuconform::facts;
using namespace gpuconform::nic_pcie;
using namespace gpuconform::nvidia_smi;

namespace {

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "every GPU's and rail NIC's PCIe link at its maximum generation and width",
    .checks = {
        {kLinksAtMaxGenAndWidth, "each GPU's current PCIe generation and width equal its maximum", true,
         ReadThenJudge([](const SuiteContext& c, const std::string& node) -> decltype(auto) { return ReadGpuInventory(c.raw, node); },
                       [](const GpuInventory& inventory, const SuiteContext& c, const std::string& node) {
                         return CheckLinksAtMaxGenAndWidth(node, inventory, c.profile);
                       }),
         [](const SuiteContext& c, const std::string&) { return GpuLinksSkipReason(c.profile); }},
        // The port listing only narrows the NICs to the rails: one that cannot be read is no error here.
        {kNicLinksAtMaxGenAndWidth, "each rail NIC's current PCIe generation and width equal its maximum (sysfs)", true,
         ReadThenJudge([](const SuiteContext& c, const std::string& node) -> decltype(auto) { return ReadNicPcie(c.raw, node); },
                       [](const NicPcieReport& nics, const SuiteContext& c, const std::string& node) {
                         const auto& ports = ReadPorts(c.raw, node);
                         return CheckNicLinksAtMaxGenAndWidth(node, nics, ports ? &*ports : nullptr, c.profile);
                       }),
         [](const SuiteContext& c, const std::string&) { return NicLinksSkipReason(c.profile); }},
    },
    .probes = JoinProbes({GpuFactProbes(), PortProbes(), {NicPcieProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::pcie
