// Pcie suite glue: the checks, judged per node from the GPU facts (NVML or nvidia-smi -q -x) and NIC links (sysfs), and the registration.
#include "harness/suite_registry.h"
#include "harness/raw_text.h"
#include "facts/ib_port_facts.h"
#include "facts/gpu_facts.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"
#include "probes/nic_pcie/nic_pcie_parse.h"
#include "probes/nic_pcie/nic_pcie_probe.h"
#include "suites/pcie/pcie_checks.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::pcie {

using namespace gpuconform::facts;
using namespace gpuconform::nic_pcie;
using namespace gpuconform::nvidia_smi;

namespace {

Result<NicPcieReport> ReadNics(const SuiteContext& context, const std::string& node) {
  const ProbeSpec& spec = NicPcieProbe();
  const RawOutput out = context.raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, "the NIC PCIe probe could not read sysfs");
  if (!text) return Error{text.error()};
  return ParseNicPcie(*text, out.origin.empty() ? node + "/" + spec.file : out.origin);
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "every GPU's and rail NIC's PCIe link at its maximum generation and width",
    .checks = {
        {kLinksAtMaxGenAndWidth, "each GPU's current PCIe generation and width equal its maximum", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckLinksAtMaxGenAndWidth(node, ReadGpuInventory(c.raw, node), c.profile);
         }},
        {kNicLinksAtMaxGenAndWidth, "each rail NIC's current PCIe generation and width equal its maximum (sysfs)", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckNicLinksAtMaxGenAndWidth(node, ReadNics(c, node), ReadPorts(c.raw, node), c.profile);
         }},
    },
    .probes = JoinProbes({facts::GpuFactProbes(), facts::PortProbes(), {NicPcieProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::pcie
