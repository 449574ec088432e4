// Blame: which node drags the allreduce down. The MPI probe measures every neighbour pair of
// nodes alone (probes/mpi_sweep/pair_results.h); a node whose link is slow is in every slow
// pair. Pure: the pairs, already read (probes/mpi_sweep/mpi_sweep_facts.h), in; a judgement
// naming the node (or link) out. A node the sweep could
// not include at all (unreachable over the fabric) fails here too, with the pairs named.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/mpi_sweep/sweep_gate.h"

namespace gpuconform::allreduce {

using namespace gpuconform::mpi_sweep;

// `excluded`: nodes the sweep's reachability gate left out (sweep_gate.h); each is a failure
// naming the pairs that could not connect, whatever the pairs measured say. A pair below
// `slow_fraction` of the fastest pair is slow (the profile's fabric.slow_pair_fraction).
// `traced_to_links`: excluded nodes that the isolation traced to a pair or a boundary (node ->
// "node2<->node7"): their finding names that link, not the node, so no drain plan drains it.
CheckResult CheckNoSlowNode(const std::vector<mpi_sweep::PairResult>& pairs,
                            const std::vector<mpi_sweep::ExcludedNode>& excluded,
                            double slow_fraction = mpi_sweep::kSlowPairFraction,
                            const std::map<std::string, std::string>& traced_to_links = {});

}  // namespace gpuconform::allreduce
