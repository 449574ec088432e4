#include "harness/core/snapshot_gaps.h"

#include <algorithm>
#include <unordered_set>

#include "harness/util/hostlist.h"
#include "harness/util/text_util.h"

namespace gpuconform {

namespace {

constexpr std::string_view kAbsentWords = "the snapshot has no ";

// Adds `item` to `list` unless `listed` (what `list` holds) has it: searching the list
// instead would make a gap that every node has cost O(nodes^2).
void AddOnce(std::vector<std::string>& list, std::unordered_set<std::string>& listed, const std::string& item) {
  if (listed.insert(item).second) list.push_back(item);
}

}  // namespace

std::string AbsentFileIn(const std::string& message, std::string* node) {
  const std::size_t at = message.find(kAbsentWords);
  if (at == std::string::npos) return "";
  std::string path = message.substr(at + kAbsentWords.size());
  path = path.substr(0, path.find_first_of(" \n;),"));
  // ".../nodes/<node>/<file>" or ".../cluster/<file>", as SnapshotSource names them.
  std::size_t nodes = path.rfind("/nodes/");
  if (nodes != std::string::npos) {
    ++nodes;
  } else if (StartsWith(path, "nodes/")) {
    nodes = 0;
  }
  if (nodes != std::string::npos) {
    const std::string rest = path.substr(nodes + 6);  // "<node>/<file>"
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos) return "";
    if (node != nullptr) *node = rest.substr(0, slash);
    return "nodes/*/" + rest.substr(slash + 1);
  }
  const std::size_t cluster = path.rfind("cluster/");
  if (cluster == std::string::npos) return "";
  return path.substr(cluster);
}

std::vector<SnapshotGap> FindSnapshotGaps(const std::vector<CheckResult>& results) {
  std::vector<SnapshotGap> gaps;
  std::vector<std::unordered_set<std::string>> nodes_of, checks_of;  // what gaps[i] lists
  for (const auto& result : results) {
    if (result.verdict != Verdict::kError) continue;
    for (const auto& finding : result.findings) {
      std::string node;
      const std::string file = AbsentFileIn(finding.message, &node);
      if (file.empty()) continue;
      auto gap = std::find_if(gaps.begin(), gaps.end(), [&](const SnapshotGap& g) { return g.file == file; });
      if (gap == gaps.end()) {
        gap = gaps.insert(gaps.end(), SnapshotGap{file, {}, {}});
        nodes_of.emplace_back();
        checks_of.emplace_back();
      }
      const auto at = static_cast<std::size_t>(gap - gaps.begin());
      if (!node.empty()) AddOnce(gap->nodes, nodes_of[at], node);
      AddOnce(gap->checks, checks_of[at], result.suite + "." + result.check);
    }
  }
  return gaps;
}

bool OnlySnapshotGaps(const CheckResult& result) {
  return result.verdict == Verdict::kError && !result.findings.empty() &&
         std::all_of(result.findings.begin(), result.findings.end(),
                     [](const Finding& finding) { return !AbsentFileIn(finding.message).empty(); });
}

std::vector<std::string> SnapshotGapLines(const std::vector<SnapshotGap>& gaps, const std::string& run_profile,
                                          const std::string& capture_profile) {
  std::vector<std::string> lines;
  if (gaps.empty()) return lines;
  for (const auto& gap : gaps) {
    constexpr std::size_t kChecksShown = 6;
    std::vector<std::string> shown(gap.checks.begin(), gap.checks.begin() + std::min(gap.checks.size(), kChecksShown));
    std::string line = gap.file + (gap.nodes.empty() ? "" : " (" + ShortHostlist(gap.nodes, 60) + ")") + ": " +
                       Join(shown, ", ");
    if (gap.checks.size() > kChecksShown) line += " and " + std::to_string(gap.checks.size() - kChecksShown) + " more";
    line += " (" + std::to_string(gap.checks.size()) + (gap.checks.size() == 1 ? " check)" : " checks)");
    lines.push_back(line);
  }
  std::string next = "capture them with `gpuconform capture --profile " + run_profile + " --out DIR` under srun";
  if (!capture_profile.empty() && capture_profile != run_profile) {
    next += "; this snapshot was captured under profile " + capture_profile + ", whose probes differ";
  }
  lines.push_back(next);
  return lines;
}

void NoteCaptureProfile(std::vector<CheckResult>& results, const std::string& run_profile,
                        const std::string& capture_profile) {
  if (capture_profile.empty() || run_profile.empty() || capture_profile == run_profile) return;
  const std::string note = " (this snapshot was captured under profile " + capture_profile + " and is judged under " +
                           run_profile + ": `gpuconform capture --profile " + run_profile +
                           " --out DIR` records what this check needs)";
  for (auto& result : results) {
    if (result.verdict != Verdict::kError) continue;
    for (auto& finding : result.findings) finding.message += note;
  }
}

}  // namespace gpuconform
