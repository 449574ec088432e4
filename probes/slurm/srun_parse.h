// Parser for what `srun` prints on stderr when Slurm cannot start a task on a node
// ("srun: error: Task launch for StepId=6.0 failed on node node1: Socket timed out on
// send/recv operation"). `gpuconform launch` reads it to rerun the step without those nodes.
// Pure: text in, the refused nodes (each once, in order) out.
#pragma once

#include <string>
#include <vector>

#include "harness/run_options.h"

namespace gpuconform::slurm {

std::vector<RefusedNode> ParseSrunLaunchRefusals(const std::string& srun_stderr);

}  // namespace gpuconform::slurm
