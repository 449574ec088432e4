#include "probes/nvbandwidth/nvbandwidth_facts.h"

#include "harness/core/failing_tool_reading.h"
#include "probes/nvbandwidth/nvbandwidth_probes.h"

namespace gpuconform::nvbandwidth {

const Result<NvbandwidthReport>& ReadNvbandwidth(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NvbandwidthReport>>("nvbandwidth", node, [&] {
    return facts::ParseFirstPresentWhateverItsExit(raw, node, {&NvbandwidthJsonProbe(), &NvbandwidthTextProbe()},
                                                   "nvbandwidth is not installed on the node", ParseNvbandwidth);
  });
}

}  // namespace gpuconform::nvbandwidth
