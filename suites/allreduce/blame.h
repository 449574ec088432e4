// Blame: which node drags the allreduce down. The MPI probe measures every neighbour pair of
// nodes alone (probes/mpi_sweep/pair_results.h); a node whose link is slow is in every slow
// pair. Pure: the pairs in, a verdict naming the node (or link) out.
#pragma once

#include <string>
#include <vector>

#include "harness/verdict.h"
#include "probes/mpi_sweep/pair_results.h"

namespace gpuconform::allreduce {

using namespace gpuconform::mpi_sweep;

CheckResult CheckNoSlowNode(const std::vector<mpi_sweep::PairResult>& pairs, const std::string& check_name);

}  // namespace gpuconform::allreduce
