#include "probes/checkpoint_writer/checkpoint_writer_facts.h"

#include "probes/checkpoint_writer/checkpoint_probe.h"

namespace gpuconform::checkpoint {

const Result<NodeCheckpointReport>& ReadCheckpointReport(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NodeCheckpointReport>>("checkpoint-report", node, [&]() -> Result<NodeCheckpointReport> {
    const ProbeSpec& spec = CheckpointProbe();
    const RawOutput out = raw.NodeOutput(node, spec.id);
    if (!out.ok()) {
      std::string problem =
          out.detail.empty() ? "no " + spec.file + " (" + ProbeStatusName(out.status) + ")" : out.detail;
      if (!problem.starts_with(node + ":")) problem = node + ": " + problem;
      return Error{problem};
    }
    return ParseCheckpointReport(out.text, node, node + "/" + spec.file);
  });
}

}  // namespace gpuconform::checkpoint
