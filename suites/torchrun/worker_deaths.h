// The Torchrun workers that died of an exhausted resource of their node (the one classifier,
// probes/resource_limits), and the cases that depended on them: a rank that dies in a stage
// leaves every later stage misaligned on every rank (the barriers no longer pair up), so the
// checks of that stage and after skip, and the node's own case names the resource.
// Contract: pure. The deaths are found once from every node's report; each check's judgement
// is then put through them on its own.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/core/node_facts.h"
#include "harness/core/verdict.h"
#include "probes/resource_limits/death_verdicts.h"
#include "probes/torchrun/torchrun_parse.h"

namespace gpuconform::torchrun {

// Each node's earliest death a resource explains.
struct WorkerDeaths {
  std::vector<resource_limits::ClassifiedDeath> deaths;  // in node order
  std::map<std::string, int> stage_of;                   // node -> the stage its rank died in
};
WorkerDeaths FindWorkerDeaths(const NodeFacts<NodeTorchrunReport>& reports);

// The judgement of `check` on `node` ("" for a cluster check) as the deaths leave it
// (death_verdicts.h): the node's DataLoaderThroughput where the rank died loading data, else its
// LauncherStarted, fails with the resource's code; the cases of the stages from a death on skip;
// the other checks keep their judgement.
CheckResult WithWorkerDeaths(CheckResult judged, const std::string& check, const std::string& node,
                             const WorkerDeaths& deaths);

}  // namespace gpuconform::torchrun
