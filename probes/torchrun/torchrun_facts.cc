#include "probes/torchrun/torchrun_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/torchrun/torchrun_probe.h"

namespace gpuconform::torchrun {

const Result<NodeTorchrunReport>& ReadTorchrunReport(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NodeTorchrunReport>>("torchrun-report", node, [&] {
    return facts::ParseOwnProbeOutput(raw, node, TorchrunProbe(), ParseTorchrunReport);
  });
}

}  // namespace gpuconform::torchrun
