// The gate before the MPI sweep: Open MPI ends the whole step at the first peer it cannot
// reach, so the sweep runs only on nodes that can all reach each other over the fabric.
// The fabric reachability mesh (probes/fabric_reach) says which pairs cannot connect; the
// gate takes out, one at a time, the node in the most such pairs, until the rest reach each
// other. Excluded nodes are written into the sweep's table as comment lines, so that the
// checks name them with the pairs that excluded them.
// Contract: pure and deterministic.
#pragma once

#include <string>
#include <vector>

namespace gpuconform::mpi_sweep {

struct UnreachablePair {
  std::string from;
  std::string to;
  std::string address;  // "10.20.0.3:40999"
  std::string error;    // the system's words: "No route to host"
};

struct ExcludedNode {
  std::string node;
  std::string why;  // "node1 cannot connect to node3 at 10.20.0.3:40999 (No route to host); ..."
};

struct SweepGate {
  std::vector<std::string> included;  // in the order given
  std::vector<ExcludedNode> excluded;
};

// `untestable`: nodes the mesh could not test at all (no fabric address, no listener); they
// are excluded with their reason. Ties go to the node more often the unreachable end, then to
// the later node in `nodes`.
SweepGate DecideSweepNodes(const std::vector<std::string>& nodes, const std::vector<UnreachablePair>& unreachable,
                           const std::vector<ExcludedNode>& untestable);

// "# excluded NODE WHY" lines for the sweep's table, and back.
std::string ExcludedLines(const std::vector<ExcludedNode>& excluded);
std::vector<ExcludedNode> ParseExcludedLines(const std::string& text);

}  // namespace gpuconform::mpi_sweep
