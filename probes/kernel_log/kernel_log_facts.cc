#include "probes/kernel_log/kernel_log_facts.h"

#include "harness/core/fact_reading.h"
#include "harness/core/raw_lines.h"
#include "probes/kernel_log/kernel_log_probe.h"

namespace gpuconform::kernel_log {

const Result<KernelLog>& ReadKernelLog(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<KernelLog>>("kernel-log", node, [&]() -> Result<KernelLog> {
    const ProbeSpec& spec = KernelLogProbe();
    const RawOutput out = raw.NodeOutput(node, spec.id);
    // Streamed: a replayed dmesg.txt (or journal) is read a chunk at a time.
    auto lines = UsableLines(out, node, spec.file, "neither dmesg nor journalctl is installed");
    if (!lines) return Error{lines.error()};
    return ParseKernelLog(**lines, facts::OriginOf(out, node, spec));
  });
}

}  // namespace gpuconform::kernel_log
