// MpiFaultIsolation: what the isolation that follows the MPI sweep (probes/mpi_sweep/
// mpi_isolation.h) found, from its record replayed (cluster/isolation.txt). A screen that
// passed is a pass (one round); otherwise one finding per thing the search named: a node
// (isolated-node, isolated-slow-node), the path between two nodes (isolated-pair), the links
// between two groups (isolated-boundary), or what it could not name (isolation-inconclusive).
// A pair or a boundary names no single node, so a drain plan drains neither side.
// Pure: the record and its findings in.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "probes/isolation/isolation_record.h"

namespace gpuconform::allreduce {

CheckResult CheckFaultIsolation(const isolation::IsolationRecord& record,
                                const std::vector<isolation::Finding>& findings);

// "node2<->node7", "node[1-4]<->node[5-8]": the entity of a pair or boundary finding.
std::string LinkEntity(const isolation::Finding& finding);

// Nodes that a pair or boundary finding explains and no node finding names, with that
// finding's entity: the reachability gate may have left such a node out of the sweep, and the
// node is then not the culprit (MpiNoSlowNode says so rather than blaming it).
std::map<std::string, std::string> NodesTracedToLinks(const std::vector<isolation::Finding>& findings);

}  // namespace gpuconform::allreduce
