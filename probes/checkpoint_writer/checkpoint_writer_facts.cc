#include "probes/checkpoint_writer/checkpoint_writer_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/checkpoint_writer/checkpoint_probe.h"

namespace gpuconform::checkpoint {

const Result<NodeCheckpointReport>& ReadCheckpointReport(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NodeCheckpointReport>>("checkpoint-report", node, [&] {
    return facts::ParseOwnProbeOutput(raw, node, CheckpointProbe(), ParseCheckpointReport);
  });
}

}  // namespace gpuconform::checkpoint
