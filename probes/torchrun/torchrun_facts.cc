#include "probes/torchrun/torchrun_facts.h"

#include "probes/torchrun/torchrun_probe.h"

namespace gpuconform::torchrun {

const Result<NodeTorchrunReport>& ReadTorchrunReport(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NodeTorchrunReport>>("torchrun-report", node, [&]() -> Result<NodeTorchrunReport> {
    const ProbeSpec& spec = TorchrunProbe();
    const RawOutput out = raw.NodeOutput(node, spec.id);
    if (!out.ok()) {
      std::string problem =
          out.detail.empty() ? "no " + spec.file + " (" + ProbeStatusName(out.status) + ")" : out.detail;
      if (!problem.starts_with(node + ":")) problem = node + ": " + problem;
      return Error{problem};
    }
    return ParseTorchrunReport(out.text, node, out.origin.empty() ? node + "/" + spec.file : out.origin);
  });
}

}  // namespace gpuconform::torchrun
