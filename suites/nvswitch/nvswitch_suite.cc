// NvSwitch suite glue: the probes, the parse of each node's outputs, and the registration.
#include "harness/probe_catalog.h"
#include "harness/suite_registry.h"
#include "suites/nvswitch/nvswitch_checks.h"
#include "suites/nvswitch/nvswitch_parse.h"
#include "suites/pcie/pcie_parse.h"

namespace gpuconform::nvswitch {

namespace {

// What a missing nvidia-smi means: the driver package provides it, so there is no driver.
constexpr char kNoDriver[] = "no NVIDIA driver was found on the node (nvidia-smi not installed)";

const ProbeSpec& NvlinkStatusProbe() {
  // nvidia-smi can take tens of seconds on a node with a wedged GPU.
  static const ProbeSpec kSpec = CommandProbe("nvidia-smi-nvlink-s", ProbeScope::kNode, "nvidia-smi-nvlink-s.txt",
                                              {"nvidia-smi", "nvlink", "-s"}, 60000);
  return kSpec;
}

template <typename T>
Result<T> Read(const SuiteContext& context, const std::string& node, const ProbeSpec& spec,
               Result<T> (*parse)(const std::string&, const std::string&)) {
  const RawOutput out = context.raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, kNoDriver);
  if (!text) return Error{text.error()};
  return parse(*text, out.origin.empty() ? node + "/" + spec.file : out.origin);
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  for (const auto& node : context.raw.nodes) {
    results.push_back(CheckGpuCountAndModel(
        node, Read(context, node, probes::NvidiaSmiQueryXml(), pcie::ParseNvidiaSmiGpus), context.profile));
    results.push_back(CheckAllPairsNvlinkConnected(
        node, Read(context, node, probes::NvidiaSmiTopoMatrix(), ParseTopoMatrix), context.profile));
    results.push_back(
        CheckAllLinksActive(node, Read(context, node, NvlinkStatusProbe(), ParseNvlinkStatus), context.profile));
  }
  return results;
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary = "GPU count and model, NVLink all-to-all through NVSwitch, every NVLink active at speed";
  suite.checks = {
      {kGpuCountAndModel, "the node has the profile's GPU count, each of the profile's model", true},
      {kAllPairsNvlinkConnected, "every GPU pair is NV<k> (k = nvlink.links_per_gpu) in nvidia-smi topo -m", true},
      {kAllLinksActive, "every GPU has nvlink.links_per_gpu links, each active at >= link_bandwidth_gb_per_s", true},
  };
  suite.probes = {probes::NvidiaSmiQueryXml(), probes::NvidiaSmiTopoMatrix(), NvlinkStatusProbe()};
  suite.evaluate = Evaluate;
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nvswitch
