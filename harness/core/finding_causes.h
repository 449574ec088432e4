// Causes shared across nodes: findings whose messages differ only in the node they name are
// one cause, said once with its nodes in Slurm hostlist notation ("gpu[00001-01000]: no
// clock.txt"), so a fleet with one problem on every node reads one line, not ten thousand.
// Used by the terminal report and the JUnit writer.
// Contract: pure. A finding's node is its case's node, or, for a cluster-wide case, the
// finding's entity when that is a node (no '/'), or the "node: " that starts its message when
// the entity is "cluster". A node name is replaced only where it stands whole ("node1" is not
// replaced inside "node10"). Causes keep the order in which they were first seen; a cause's
// code is its first finding's.
#pragma once

#include <string>
#include <vector>

#include "harness/core/verdict.h"

namespace gpuconform {

struct NodeFinding {
  std::string case_node;  // "" for a cluster-wide case
  const Finding* finding;
};

struct Cause {
  std::string pattern;  // the message, with each node's name as \x01
  std::vector<std::string> nodes;
  const Finding* first = nullptr;
};

std::vector<Cause> GroupCauses(const std::vector<NodeFinding>& findings);

// The cause as one line: "gpu[00001-01000]: no clock.txt"; a message that does not name its
// node ends with "(on N nodes: hostlist)".
std::string CauseLine(const Cause& cause);

}  // namespace gpuconform
