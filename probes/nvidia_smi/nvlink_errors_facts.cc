#include "probes/nvidia_smi/nvlink_errors_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"

namespace gpuconform::nvidia_smi {

const Result<NvlinkErrorReport>& ReadNvlinkErrors(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NvlinkErrorReport>>("nvidia-smi-nvlink-e", node, [&] {
    return facts::ParseNodeOutput(raw, node, NvlinkErrorsProbe(), "no NVIDIA driver was found on the node (nvidia-smi not installed)",
                                  ParseNvlinkErrors);
  });
}

}  // namespace gpuconform::nvidia_smi
