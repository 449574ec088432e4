#include "probes/gpudirect/gpudirect_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/gpudirect/gpudirect_probe.h"

namespace gpuconform::gpudirect {

const Result<GpuDirectReport>& ReadGpuDirect(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<GpuDirectReport>>("gpudirect", node, [&] {
    return facts::ParseNodeOutput(raw, node, GpuDirectProbe(), "", ParseGpuDirect);
  });
}

}  // namespace gpuconform::gpudirect
