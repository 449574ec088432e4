// Coverage: which nodes a run judged, and which the controller lists but the run had no task on.
// Contract: pure. A node-local check cannot be judged on a node that ran no task (a run on 2
// nodes of a 1,000-node partition); its error there says nothing about the node. Unless the
// user asks for every node (--require-all-nodes, as acceptance runs do), those errors leave the
// results and the node is listed as not covered instead. A failure about such a node, judged
// from the controller's view (drained, slurmd unreachable), stays: it is a real finding.
#pragma once

#include <string>
#include <vector>

#include "harness/core/verdict.h"

namespace gpuconform {

struct NodeCoverage {
  std::vector<std::string> judged;       // nodes that ran a task (or are in the snapshot)
  std::vector<std::string> not_covered;  // nodes the results name that ran none, sorted
  double Fraction() const;               // judged / (judged + not covered); 1 when none
};

struct CoverageSplit {
  std::vector<CheckResult> results;  // what the report shows
  NodeCoverage coverage;
};

CoverageSplit SplitByCoverage(std::vector<CheckResult> results, const std::vector<std::string>& judged_nodes,
                              bool require_all_nodes);

// One terminal line: "Not covered: node3 (1 of 3 nodes ran no task; ...)"; empty when all covered.
std::string CoverageLine(const NodeCoverage& coverage, bool require_all_nodes);

}  // namespace gpuconform
