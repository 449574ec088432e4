// The MPI sweep's pairwise measurements: every neighbour pair of nodes measured alone
// ("# pair A B SIZE busbw X" lines in the sweep's table; "# pair-failed A B SIZE WHY" for a
// pair whose allreduce did not complete), which pairs are slow, and which pairs the probe
// measures again to confirm a suspect. A pair that failed counts as slow. Pure; deterministic, so every rank
// computes the same pairs.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>


namespace gpuconform::mpi_sweep {

struct PairResult {
  std::string node_a;
  std::string node_b;
  long long size_bytes = 0;
  double busbw_gb_per_s = 0;
  std::string failure = {};  // why the pair's allreduce did not complete; empty when it did
};

// "# pair A B SIZE busbw X" or "# pair-failed A B SIZE WHY".
std::string PairLine(const PairResult& pair);

std::vector<PairResult> ParsePairResults(const std::string& text);

// A pair below half the fastest pair's busbw is slow. A node every one of whose pairs is slow
// (two or more) is named as the culprit; slow pairs that no culprit explains are named as
// slow links.
inline constexpr double kSlowPairFraction = 0.5;

// Before any blame: each pair that completed below half the fastest is measured once more,
// later, and the faster of its two measurements stands (MergeRemeasured). On nodes that share
// cores or a fabric with other work, a pair caught at a busy moment recovers; a slow link is
// slow both times. Deterministic, so every rank computes the same list.
std::vector<std::pair<std::string, std::string>> RemeasuredPairs(const std::vector<PairResult>& first_pass);
// `again` (a pair measured a second time) into `pairs`: the faster busbw of the two stands.
void MergeRemeasured(std::vector<PairResult>& pairs, const PairResult& again);

// The second pass. In a ring, a healthy node between two slow ones has only slow pairs and
// would be blamed with them; so each suspect (every pair of it slow) is measured once more
// with a known-good node (one with a fast pair) it has not been paired with. Deterministic,
// so every rank computes the same list. Empty when nothing is slow or no node is known good.
std::vector<std::pair<std::string, std::string>> ConfirmationPairs(const std::vector<PairResult>& first_pass);
// The same with the caller's notion of slow (the perftest pass: a floor, not the fastest pair).
std::vector<std::pair<std::string, std::string>> ConfirmationPairs(
    const std::vector<PairResult>& first_pass, const std::function<bool(const PairResult&)>& is_slow);

double Fastest(const std::vector<PairResult>& pairs);  // the fastest pair's busbw, GB/s
bool IsSlow(const PairResult& pair, double fastest, double slow_fraction = kSlowPairFraction);
// Per node: how many pairs it was measured in, and how many of them were slow.
struct PairCounts {
  int pairs = 0;
  int slow = 0;
};
std::map<std::string, PairCounts> CountPairs(const std::vector<PairResult>& pairs, double fastest,
                                             double slow_fraction = kSlowPairFraction);
// The same with the caller's notion of slow (a floor rather than a fraction of the fastest).
std::map<std::string, PairCounts> CountPairs(const std::vector<PairResult>& pairs,
                                             const std::function<bool(const PairResult&)>& is_slow);
bool AllSlow(const PairCounts& counts);  // two or more pairs, every one slow

}  // namespace gpuconform::mpi_sweep
