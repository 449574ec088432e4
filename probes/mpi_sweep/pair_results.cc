#include "probes/mpi_sweep/pair_results.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "harness/util/text_util.h"

namespace gpuconform::mpi_sweep {

std::string PairLine(const PairResult& pair) {
  if (!pair.failure.empty()) {
    std::string why = pair.failure;
    std::replace(why.begin(), why.end(), '\n', ' ');
    return "# pair-failed " + pair.node_a + " " + pair.node_b + " " + std::to_string(pair.size_bytes) + " " + why + "\n";
  }
  char busbw[32];
  std::snprintf(busbw, sizeof(busbw), "%.3f", pair.busbw_gb_per_s);
  return "# pair " + pair.node_a + " " + pair.node_b + " " + std::to_string(pair.size_bytes) + " busbw " + busbw + "\n";
}

std::vector<PairResult> ParsePairResults(const std::string& text) {
  std::vector<PairResult> pairs;
  for (auto line : SplitLines(text)) {
    const auto words = SplitWords(line);
    // "# pair-failed node1 node2 1048576 the step ended with ..."
    if (words.size() >= 6 && words[0] == "#" && words[1] == "pair-failed") {
      const std::size_t why_at = static_cast<std::size_t>(words[5].data() - line.data());
      PairResult pair{std::string(words[2]), std::string(words[3]), std::atoll(std::string(words[4]).c_str()), 0,
                      std::string(Trim(line.substr(why_at)))};
      if (pair.size_bytes > 0) pairs.push_back(pair);
      continue;
    }
    // "# pair node1 node2 8388608 busbw 0.812"
    if (words.size() != 7 || words[0] != "#" || words[1] != "pair" || words[5] != "busbw") continue;
    PairResult pair{std::string(words[2]), std::string(words[3]), std::atoll(std::string(words[4]).c_str()),
                    std::atof(std::string(words[6]).c_str())};
    if (pair.size_bytes > 0) pairs.push_back(pair);
  }
  return pairs;
}

double Fastest(const std::vector<PairResult>& pairs) {
  double fastest = 0;
  for (const auto& pair : pairs) {
    if (pair.failure.empty()) fastest = std::max(fastest, pair.busbw_gb_per_s);
  }
  return fastest;
}

bool IsSlow(const PairResult& pair, double fastest, double slow_fraction) {
  return !pair.failure.empty() || pair.busbw_gb_per_s < slow_fraction * fastest;
}

std::map<std::string, PairCounts> CountPairs(const std::vector<PairResult>& pairs, double fastest,
                                             double slow_fraction) {
  return CountPairs(pairs, [&](const PairResult& pair) { return IsSlow(pair, fastest, slow_fraction); });
}

std::map<std::string, PairCounts> CountPairs(const std::vector<PairResult>& pairs,
                                             const std::function<bool(const PairResult&)>& is_slow) {
  std::map<std::string, PairCounts> counts;
  for (const auto& pair : pairs) {
    const bool slow = is_slow(pair);
    for (const auto* node : {&pair.node_a, &pair.node_b}) {
      ++counts[*node].pairs;
      if (slow) ++counts[*node].slow;
    }
  }
  return counts;
}

bool AllSlow(const PairCounts& counts) { return counts.pairs >= 2 && counts.slow == counts.pairs; }


std::vector<std::pair<std::string, std::string>> RemeasuredPairs(const std::vector<PairResult>& first_pass) {
  const double fastest = Fastest(first_pass);
  std::vector<std::pair<std::string, std::string>> again;
  for (const auto& pair : first_pass) {
    if (pair.failure.empty() && IsSlow(pair, fastest)) again.emplace_back(pair.node_a, pair.node_b);
  }
  return again;
}

void MergeRemeasured(std::vector<PairResult>& pairs, const PairResult& again) {
  for (auto& pair : pairs) {
    if (pair.node_a == again.node_a && pair.node_b == again.node_b && again.failure.empty()) {
      pair.busbw_gb_per_s = std::max(pair.busbw_gb_per_s, again.busbw_gb_per_s);
    }
  }
}

std::vector<std::pair<std::string, std::string>> ConfirmationPairs(const std::vector<PairResult>& first_pass) {
  const double fastest = Fastest(first_pass);
  return ConfirmationPairs(first_pass, [fastest](const PairResult& pair) { return IsSlow(pair, fastest); });
}

std::vector<std::pair<std::string, std::string>> ConfirmationPairs(
    const std::vector<PairResult>& first_pass, const std::function<bool(const PairResult&)>& is_slow) {
  const auto counts = CountPairs(first_pass, is_slow);
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

}  // namespace gpuconform::mpi_sweep
