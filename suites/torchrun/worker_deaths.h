// The Torchrun workers that died of an exhausted resource of their node (the one classifier,
// probes/resource_limits), and the cases that depended on them: a rank that dies in a stage
// leaves every later stage misaligned on every rank (the barriers no longer pair up), so the
// checks of that stage and after skip, and the node's own case names the resource.
// Contract: pure.
#pragma once

#include <vector>

#include "harness/node_facts.h"
#include "harness/verdict.h"
#include "probes/torchrun/torchrun_parse.h"

namespace gpuconform::torchrun {

// Applies the deaths found in `reports` to the suite's judgements (death_verdicts.h): the
// node's DataLoaderThroughput where the rank died loading data, else its LauncherStarted,
// fails with the resource's code; the cases of the stages from the death on skip.
void ApplyWorkerDeaths(std::vector<CheckResult>& results, const NodeFacts<NodeTorchrunReport>& reports);

}  // namespace gpuconform::torchrun
