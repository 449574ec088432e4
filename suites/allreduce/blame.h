// Blame: which node drags the allreduce down. The MPI probe measures every neighbour pair of
// nodes alone ("# pair A B SIZE busbw X" lines); a node whose link is slow is in every slow
// pair. Pure: the probe's text in, a verdict naming the node (or link) out.
#pragma once

#include <string>
#include <utility>
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

// A pair below half the fastest pair's busbw is slow. A node every one of whose pairs is slow
// (two or more) is named as the culprit; slow pairs that no culprit explains are named as
// slow links.
inline constexpr double kSlowPairFraction = 0.5;

// The second pass. In a ring, a healthy node between two slow ones has only slow pairs and
// would be blamed with them; so each suspect (every pair of it slow) is measured once more
// with a known-good node (one with a fast pair) it has not been paired with. Deterministic,
// so every rank computes the same list. Empty when nothing is slow or no node is known good.
std::vector<std::pair<std::string, std::string>> ConfirmationPairs(const std::vector<PairResult>& first_pass);
CheckResult CheckNoSlowNode(const std::vector<PairResult>& pairs, const std::string& check_name);

}  // namespace gpuconform::allreduce
