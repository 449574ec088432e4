// The one rule for a worker that died of an exhausted resource (resource_exhaustion.h), in
// every suite that starts workers: the node's own case fails with the resource's code, naming
// the node, the resource, its measured limit and the fix; every case that depended on that
// worker and did not pass is skipped, saying which worker died of what and which case names it,
// so that no consequence (a checkpoint a rank could not load, a collective that hung) fails
// with a code that points elsewhere. A case that passed keeps its pass: it is evidence.
// Contract: pure.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "probes/resource_limits/resource_exhaustion.h"

namespace gpuconform::resource_limits {

struct ClassifiedDeath {
  std::string node;       // whose resource ran out
  std::string who;        // "rank 4 on node3", "the NCCL worker on node2"
  Exhaustion exhaustion;
  std::string own_check;  // the case that names it: this check, on `node` (or cluster-wide, where it has no node)
};

// Whether the case `result` read what the dead worker would have given.
using DependsOn = std::function<bool(const CheckResult& result, const ClassifiedDeath& death)>;

// `suite` only words where the death is named ("Torchrun.DataLoaderThroughput/node3").
void ApplyDeaths(std::vector<CheckResult>& results, const std::vector<ClassifiedDeath>& deaths,
                 const std::string& suite, const DependsOn& depends);

}  // namespace gpuconform::resource_limits
