#include "probes/kernel_log/kernel_log_facts.h"

#include "harness/fact_reading.h"
#include "probes/kernel_log/kernel_log_probe.h"

namespace gpuconform::kernel_log {

const Result<KernelLog>& ReadKernelLog(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<KernelLog>>("kernel-log", node, [&] {
    return facts::ParseNodeOutput(raw, node, KernelLogProbe(), "neither dmesg nor journalctl is installed",
                                  ParseKernelLog);
  });
}

}  // namespace gpuconform::kernel_log
