#include "harness/core/node_coverage.h"

#include <set>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "harness/util/hostlist.h"

namespace gpuconform {

double NodeCoverage::Fraction() const {
  const std::size_t listed = judged.size() + not_covered.size();
  return listed == 0 ? 1.0 : static_cast<double>(judged.size()) / static_cast<double>(listed);
}

CoverageSplit SplitByCoverage(std::vector<CheckResult> results, const std::vector<std::string>& judged_nodes,
                              bool require_all_nodes) {
  // Hashed: a fleet's names share long prefixes, which an ordered set compares again and again.
  const std::unordered_set<std::string_view> judged(judged_nodes.begin(), judged_nodes.end());
  std::set<std::string> outside;
  CoverageSplit split;
  split.coverage.judged = judged_nodes;
  // Filtered in place: a fleet's 300,000 results are not copied into a second vector.
  std::erase_if(results, [&](const CheckResult& result) {
    const bool uncovered = !result.node.empty() && !judged.count(result.node);
    if (uncovered) outside.insert(result.node);
    return uncovered && result.verdict == Verdict::kError && !require_all_nodes;
  });
  split.results = std::move(results);
  split.coverage.not_covered.assign(outside.begin(), outside.end());
  return split;
}

std::string CoverageLine(const NodeCoverage& coverage, bool require_all_nodes) {
  if (coverage.not_covered.empty()) return "";
  const std::size_t listed = coverage.judged.size() + coverage.not_covered.size();
  return "Not covered: " + CompressHostlist(coverage.not_covered) + " (" + std::to_string(coverage.not_covered.size()) +
         " of " + std::to_string(listed) + " nodes the controller lists ran no task in this run; " +
         (require_all_nodes ? "--require-all-nodes makes their node-local checks errors)"
                            : "their node-local checks were not judged; --require-all-nodes makes them errors)");
}

}  // namespace gpuconform
