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

namespace {

double Fastest(const std::vector<PairResult>& pairs) {
  double fastest = 0;
  for (const auto& pair : pairs) fastest = std::max(fastest, pair.busbw_gb_per_s);
  return fastest;
}

bool IsSlow(const PairResult& pair, double fastest) { return pair.busbw_gb_per_s < kSlowPairFraction * fastest; }

// Per node: how many pairs it is in, and how many of them are slow.
struct PairCounts {
  int pairs = 0;
  int slow = 0;
};

std::map<std::string, PairCounts> CountPairs(const std::vector<PairResult>& pairs, double fastest) {
  std::map<std::string, PairCounts> counts;
  for (const auto& pair : pairs) {
    for (const auto* node : {&pair.node_a, &pair.node_b}) {
      ++counts[*node].pairs;
      if (IsSlow(pair, fastest)) ++counts[*node].slow;
    }
  }
  return counts;
}

bool AllSlow(const PairCounts& counts) { return counts.pairs >= 2 && counts.slow == counts.pairs; }

}  // namespace

std::vector<std::pair<std::string, std::string>> ConfirmationPairs(const std::vector<PairResult>& first_pass) {
  const double fastest = Fastest(first_pass);
  const auto counts = CountPairs(first_pass, fastest);
  std::vector<std::string> suspects, good;
  for (const auto& [node, count] : counts) {
    if (AllSlow(count)) {
      suspects.push_back(node);
    } else if (count.slow < count.pairs) {
      good.push_back(node);
    }
  }
  auto measured = [&](const std::string& a, const std::string& b) {
    return std::any_of(first_pass.begin(), first_pass.end(), [&](const PairResult& pair) {
      return (pair.node_a == a && pair.node_b == b) || (pair.node_a == b && pair.node_b == a);
    });
  };
  std::vector<std::pair<std::string, std::string>> confirm;
  std::size_t next_good = 0;  // spread the suspects over the good nodes
  for (const auto& suspect : suspects) {
    for (std::size_t tried = 0; tried < good.size(); ++tried) {
      const std::string& partner = good[(next_good + tried) % good.size()];
      if (measured(suspect, partner)) continue;
      confirm.emplace_back(suspect, partner);
      next_good = (next_good + tried + 1) % good.size();
      break;
    }
  }
  return confirm;
}

CheckResult CheckNoSlowNode(const std::vector<PairResult>& pairs, const std::string& check_name) {
  if (pairs.size() < 3) {
    return Skipped(kSuite, check_name, "", "blame needs three or more nodes (pairs to compare)");
  }
  const double fastest = Fastest(pairs);
  CheckResult result = Passed(kSuite, check_name, "");
  for (const auto& pair : pairs) {
    result.measurements.push_back({"pair_busbw@" + pair.node_a + "+" + pair.node_b,
                                   fmt::format("{:.3f}", pair.busbw_gb_per_s), "GB/s",
                                   fmt::format(">= {:.3f} (half the fastest pair)", kSlowPairFraction * fastest),
                                   "pairwise MPI_Allreduce of " + HumanSize(pair.size_bytes)});
  }
  const auto counts = CountPairs(pairs, fastest);
  std::vector<std::string> culprits;
  for (const auto& [node, count] : counts) {
    if (AllSlow(count)) culprits.push_back(node);
  }
  auto describe = [&](const PairResult& pair) {
    return fmt::format("{}+{} {:.3f} GB/s", pair.node_a, pair.node_b, pair.busbw_gb_per_s);
  };
  auto is_culprit = [&](const std::string& node) {
    return std::find(culprits.begin(), culprits.end(), node) != culprits.end();
  };
  std::vector<Finding> findings;
  for (const auto& culprit : culprits) {
    std::vector<std::string> slow_text;
    for (const auto& pair : pairs) {
      if (pair.node_a == culprit || pair.node_b == culprit) slow_text.push_back(describe(pair));
    }
    findings.push_back({"slow-node", culprit,
                        culprit + ": every pair it is in is slow (" + Join(slow_text, ", ") +
                            fmt::format(") against {:.3f} GB/s for the fastest pair: ", fastest) + culprit +
                            "'s fabric link is the likely culprit; check its NIC's rate and errors, the cable and the "
                            "switch port"});
  }
  for (const auto& pair : pairs) {
    if (!IsSlow(pair, fastest) || is_culprit(pair.node_a) || is_culprit(pair.node_b)) continue;
    findings.push_back({"slow-link", pair.node_a + "+" + pair.node_b,
                        pair.node_a + "+" + pair.node_b + ": " + describe(pair) +
                            fmt::format(" against {:.3f} GB/s for the fastest pair: the link between them is slow",
                                        fastest)});
  }
  if (findings.empty()) return result;
  result.verdict = Verdict::kFail;
  result.findings = std::move(findings);
  return result;
}

}  // namespace gpuconform::allreduce
