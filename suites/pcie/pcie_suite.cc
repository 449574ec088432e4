// Pcie suite glue: the probe, the parse of each node's nvidia-smi -q -x, and the registration.
#include "harness/probe_catalog.h"
#include "harness/suite_registry.h"
#include "suites/nvswitch/nvswitch_parse.h"
#include "suites/pcie/pcie_checks.h"
#include "suites/pcie/pcie_parse.h"

namespace gpuconform::pcie {

namespace {

Result<GpuInventory> Read(const SuiteContext& context, const std::string& node) {
  const ProbeSpec spec = probes::NvidiaSmiQueryXml();
  const RawOutput out = context.raw.NodeOutput(node, spec.id);
  auto text = nvswitch::UsableText(out, node, spec.file,
                                   "no NVIDIA driver was found on the node (nvidia-smi not installed)");
  if (!text) return Error{text.error()};
  return ParseNvidiaSmiGpus(*text, out.origin.empty() ? node + "/" + spec.file : out.origin);
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  for (const auto& node : context.raw.nodes) {
    results.push_back(CheckLinksAtMaxGenAndWidth(node, Read(context, node), context.profile));
  }
  return results;
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary = "every GPU's PCIe link at its maximum generation and width";
  suite.checks = {
      {kLinksAtMaxGenAndWidth, "each GPU's current PCIe generation and width equal its maximum", true},
  };
  suite.probes = {probes::NvidiaSmiQueryXml()};
  suite.evaluate = Evaluate;
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::pcie
