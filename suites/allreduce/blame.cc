#include "suites/allreduce/blame.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "harness/text_util.h"
#include "suites/allreduce/allreduce_checks.h"

namespace gpuconform::allreduce {

std::vector<PairResult> ParsePairResults(const std::string& text) {
  std::vector<PairResult> pairs;
  for (auto line : SplitLines(text)) {
    const auto words = SplitWords(line);
    // "# pair node1 node2 8388608 busbw 0.812"
    if (words.size() != 7 || words[0] != "#" || words[1] != "pair" || words[5] != "busbw") continue;
    PairResult pair{std::string(words[2]), std::string(words[3]), std::atoll(std::string(words[4]).c_str()),
                    std::atof(std::string(words[6]).c_str())};
    if (pair.size_bytes > 0) pairs.push_back(pair);
  }
  return pairs;
}

CheckResult CheckNoSlowNode(const std::vector<PairResult>& pairs, const std::string& check_name) {
  if (pairs.size() < 3) {
    return Skipped(kSuite, check_name, "", "blame needs three or more nodes (pairs to compare)");
  }
  double fastest = 0;
  for (const auto& pair : pairs) fastest = std::max(fastest, pair.busbw_gb_per_s);
  std::vector<const PairResult*> slow;
  std::map<std::string, int> slow_pairs_of_node;
  for (const auto& pair : pairs) {
    if (pair.busbw_gb_per_s >= kSlowPairFraction * fastest) continue;
    slow.push_back(&pair);
    ++slow_pairs_of_node[pair.node_a];
    ++slow_pairs_of_node[pair.node_b];
  }
  CheckResult result = Passed(kSuite, check_name, "");
  for (const auto& pair : pairs) {
    result.measurements.push_back({"pair_busbw@" + pair.node_a + "+" + pair.node_b,
                                   fmt::format("{:.3f}", pair.busbw_gb_per_s), "GB/s",
                                   fmt::format(">= {:.3f} (half the fastest pair)", kSlowPairFraction * fastest),
                                   "pairwise MPI_Allreduce of " + HumanSize(pair.size_bytes)});
  }
  if (slow.empty()) return result;

  std::vector<std::string> culprits;
  for (const auto& [node, count] : slow_pairs_of_node) {
    if (count == static_cast<int>(slow.size())) culprits.push_back(node);
  }
  std::vector<Finding> findings;
  auto describe = [&](const PairResult& pair) {
    return fmt::format("{}+{} {:.3f} GB/s", pair.node_a, pair.node_b, pair.busbw_gb_per_s);
  };
  std::vector<std::string> slow_text;
  for (const auto* pair : slow) slow_text.push_back(describe(*pair));
  if (culprits.size() == 1) {
    findings.push_back({"slow-node", culprits.front(),
                        culprits.front() + ": every pair it is in is slow (" + Join(slow_text, ", ") +
                            fmt::format(") against {:.3f} GB/s for the fastest pair: ", fastest) + culprits.front() +
                            "'s fabric link is the likely culprit; check its NIC's rate and errors, the cable and the "
                            "switch port"});
  } else {
    for (const auto* pair : slow) {
      findings.push_back({"slow-link", pair->node_a + "+" + pair->node_b,
                          pair->node_a + "+" + pair->node_b + ": " + describe(*pair) +
                              fmt::format(" against {:.3f} GB/s for the fastest pair: the link between them is slow",
                                          fastest)});
    }
  }
  result.verdict = Verdict::kFail;
  result.findings = std::move(findings);
  return result;
}

}  // namespace gpuconform::allreduce
