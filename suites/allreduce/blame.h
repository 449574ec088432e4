// Blame: which node drags the allreduce down. The MPI probe measures every neighbour pair of
// nodes alone ("# pair A B SIZE busbw X" lines); a node whose link is slow is in every slow
// pair. Pure: the probe's text in, a verdict naming the node (or link) out.
#pragma once

#include <string>
#include <vector>

#include "harness/verdict.h"

namespace gpuconform::allreduce {

struct PairResult {
  std::string node_a;
  std::string node_b;
  long long size_bytes = 0;
  double busbw_gb_per_s = 0;
};

std::vector<PairResult> ParsePairResults(const std::string& text);

// A pair below half the fastest pair's busbw is slow. The node common to every slow pair is
// named as the culprit; slow pairs with no common node are named as slow links.
inline constexpr double kSlowPairFraction = 0.5;
CheckResult CheckNoSlowNode(const std::vector<PairResult>& pairs, const std::string& check_name);

}  // namespace gpuconform::allreduce
