// Typed reader of a node's Checkpoint probe output (checkpoint.txt, CheckpointProbe), parsed
// once per run (cached in the run's facts). Pure: the run's raw outputs in. An error leads with
// the node ("node3: ..."), so a report can group the nodes that share it: the probe's own detail
// where the output was not obtained (or the file and the probe's status where it says nothing),
// else the parser's error naming node/checkpoint.txt and the line.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/checkpoint_writer/checkpoint_parse.h"

namespace gpuconform::checkpoint {

const Result<NodeCheckpointReport>& ReadCheckpointReport(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::checkpoint
