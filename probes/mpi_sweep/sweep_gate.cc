#include "probes/mpi_sweep/sweep_gate.h"

#include <algorithm>
#include <map>

#include "harness/util/text_util.h"

namespace gpuconform::mpi_sweep {

namespace {

constexpr std::string_view kExcludedPrefix = "# excluded ";

bool Has(const std::vector<std::string>& nodes, const std::string& node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

std::string Describe(const UnreachablePair& pair) {
  return pair.from + " cannot connect to " + pair.to + (pair.address.empty() ? "" : " at " + pair.address) +
         (pair.error.empty() ? "" : " (" + pair.error + ")");
}

}  // namespace

SweepGate DecideSweepNodes(const std::vector<std::string>& nodes, const std::vector<UnreachablePair>& unreachable,
                           const std::vector<ExcludedNode>& untestable) {
  SweepGate gate;
  for (const auto& node : nodes) {
    auto why = std::find_if(untestable.begin(), untestable.end(), [&](const ExcludedNode& e) { return e.node == node; });
    if (why != untestable.end()) {
      gate.excluded.push_back(*why);
    } else {
      gate.included.push_back(node);
    }
  }
  for (;;) {
    // Per included node: the unreachable pairs among included nodes it is in, and how often
    // it is the end that cannot be reached.
    std::map<std::string, std::pair<int, int>> counts;
    for (const auto& pair : unreachable) {
      if (!Has(gate.included, pair.from) || !Has(gate.included, pair.to) || pair.from == pair.to) continue;
      ++counts[pair.from].first;
      ++counts[pair.to].first;
      ++counts[pair.to].second;
    }
    if (counts.empty()) break;
    std::string worst;
    std::pair<int, int> worst_count{-1, -1};
    for (const auto& node : gate.included) {  // in order, so a later node wins a tie
      auto it = counts.find(node);
      if (it != counts.end() && it->second >= worst_count) {
        worst = node;
        worst_count = it->second;
      }
    }
    std::vector<std::string> reasons;
    for (const auto& pair : unreachable) {
      if ((pair.from == worst || pair.to == worst) && Has(gate.included, pair.from) && Has(gate.included, pair.to)) {
        reasons.push_back(Describe(pair));
      }
    }
    gate.included.erase(std::find(gate.included.begin(), gate.included.end(), worst));
    gate.excluded.push_back({worst, Join(reasons, "; ")});
  }
  return gate;
}

std::string ExcludedLines(const std::vector<ExcludedNode>& excluded) {
  std::string lines;
  for (const auto& node : excluded) {
    std::string why = node.why;
    std::replace(why.begin(), why.end(), '\n', ' ');
    lines += std::string(kExcludedPrefix) + node.node + " " + why + "\n";
  }
  return lines;
}

std::vector<ExcludedNode> ParseExcludedLines(const std::string& text) {
  std::vector<ExcludedNode> excluded;
  for (std::string_view line : SplitLines(text)) {
    if (!StartsWith(line, kExcludedPrefix)) continue;
    line.remove_prefix(kExcludedPrefix.size());
    const std::size_t space = line.find(' ');
    if (line.empty() || space == 0) continue;
    const std::string node(line.substr(0, space));
    const std::string why(space == std::string_view::npos ? std::string_view() : Trim(line.substr(space + 1)));
    excluded.push_back({node, why});
  }
  return excluded;
}

}  // namespace gpuconform::mpi_sweep
