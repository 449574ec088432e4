#include "app/terminal_printer.h"

#include "harness/core/snapshot_gaps.h"
#include "harness/util/text_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "harness/core/finding_causes.h"
#include "harness/core/node_coverage.h"
#include "harness/util/hostlist.h"
#include "harness/util/metric_bound.h"
#include "results/run_totals.h"

namespace gpuconform {

namespace {

// Findings printed per check before the rest are counted: a fleet with one cause on every
// node prints one line, not ten thousand.
constexpr std::size_t kMaxCausesPerCheck = 20;
// Measured numbers shown beside a check, of those that have a floor or a ceiling.
constexpr std::size_t kMaxMetricsPerCheck = 3;

std::string Paint(const std::string& text, const char* ansi, const TerminalStyle& style) {
  return style.color ? std::string("\x1b[") + ansi + "m" + text + "\x1b[0m" : text;
}

std::string Tag(Verdict verdict, const TerminalStyle& style) {
  switch (verdict) {
    case Verdict::kPass: return Paint("[  PASS  ]", "32", style);
    case Verdict::kFail: return Paint("[  FAIL  ]", "31", style);
    case Verdict::kError: return Paint("[ ERROR  ]", "35", style);
    case Verdict::kSkip: return Paint("[  SKIP  ]", "33", style);
    case Verdict::kRegression:
      return Paint("[REGRESSED]", "31", style);
  }
  return "";
}

std::string NodeCounts(const CheckGroup& group, const GroupCounts& counts) {
  const bool per_node = !group.cases.front()->node.empty();
  if (!per_node || counts.skip == static_cast<int>(group.cases.size())) return "";
  const int total = static_cast<int>(group.cases.size());
  std::string text = fmt::format("{}/{} nodes conform", counts.pass + counts.regression, total - counts.skip);
  if (counts.fail) text += fmt::format(", {} non-conforming", counts.fail);
  if (counts.regression) text += fmt::format(", {} worse than the baseline", counts.regression);
  if (counts.error) text += fmt::format(", {} not evaluated", counts.error);
  if (counts.skip) text += fmt::format(", {} skipped", counts.skip);
  return text;
}

std::vector<Cause> CausesOf(const CheckGroup& group, Verdict group_verdict) {
  std::vector<NodeFinding> findings;
  for (const auto* c : group.cases) {
    if (c->verdict == Verdict::kPass) continue;
    // A skip that is the same on every node is said once.
    if (c->verdict == Verdict::kSkip && (c != group.cases.front() || group_verdict != Verdict::kSkip)) continue;
    for (const auto& finding : c->findings) findings.push_back({c->node, &finding});
  }
  return GroupCauses(findings);
}

// "busbw@64MiB 0.096 GB/s (>= 0.05)" for a cluster-wide case; across nodes, the range and the
// node that measured least against a floor (most against a ceiling): "p2p_min 380-392 GB/s
// (>= 360; lowest gpu00002)".
std::string MeasuredNumbers(const CheckGroup& group) {
  struct Range {
    std::string unit, threshold, better;
    double low = 0, high = 0;
    std::string worst_node;
    int count = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Range> ranges;
  for (const auto* c : group.cases) {
    for (const auto& m : c->measurements) {
      const MetricBound bound = ParseMetricBound(m.threshold);
      const auto value = MetricNumber(m.value);
      if (bound.better.empty() || !value) continue;
      std::string name = m.name;
      if (!c->node.empty() && name.starts_with(c->node + ".")) name = name.substr(c->node.size() + 1);
      auto [it, added] = ranges.try_emplace(name);
      Range& range = it->second;
      if (added) {
        order.push_back(name);
        range = {m.unit, m.threshold, bound.better, *value, *value, c->node, 0};
      }
      const bool worse = bound.better == "higher" ? *value < range.low : *value > range.high;
      if (worse) range.worst_node = c->node;
      range.low = std::min(range.low, *value);
      range.high = std::max(range.high, *value);
      ++range.count;
    }
  }
  std::string text;
  for (std::size_t i = 0; i < order.size() && i < kMaxMetricsPerCheck; ++i) {
    const Range& range = ranges.at(order[i]);
    const std::string unit = range.unit.empty() ? "" : " " + range.unit;
    std::string values = range.low == range.high ? fmt::format("{:.4g}", range.low)
                                                 : fmt::format("{:.4g}-{:.4g}", range.low, range.high);
    std::string context = range.threshold;
    if (range.count > 1 && !range.worst_node.empty() && range.low != range.high) {
      context += (range.better == "higher" ? "; lowest " : "; highest ") + range.worst_node;
    }
    text += (text.empty() ? "" : ", ") + order[i] + " " + values + unit + " (" + context + ")";
  }
  if (order.size() > kMaxMetricsPerCheck) text += fmt::format(", +{} more", order.size() - kMaxMetricsPerCheck);
  return text;
}

}  // namespace

std::string RenderTerminalReport(const std::vector<CheckResult>& results, const TerminalStyle& style) {
  std::string out;
  std::string current_suite;
  for (const auto& group : GroupByCheck(results)) {
    const GroupCounts counts = Count(group);
    const Verdict verdict = GroupVerdict(counts);
    const bool show =
        !style.quiet || verdict == Verdict::kFail || verdict == Verdict::kError || verdict == Verdict::kRegression;
    if (!show) continue;
    if (group.suite != current_suite) {
      current_suite = group.suite;
      out += Paint(group.suite, "1", style) + "\n";
    }
    const std::string counts_text = NodeCounts(group, counts);
    out += fmt::format("{} {:<34}{}\n", Tag(verdict, style), group.check, counts_text.empty() ? "" : " " + counts_text);
    if (verdict != Verdict::kSkip) {
      if (const std::string numbers = MeasuredNumbers(group); !numbers.empty()) {
        out += "             measured: " + numbers + "\n";
      }
    }
    // An error that is only absent snapshot files is said once, in the gaps after the report.
    if (verdict == Verdict::kError && std::all_of(group.cases.begin(), group.cases.end(), [](const CheckResult* c) {
          return c->verdict != Verdict::kError || OnlySnapshotGaps(*c);
        })) {
      std::vector<std::string> files;
      for (const CheckResult* c : group.cases) {
        for (const auto& finding : c->findings) {
          const std::string file = AbsentFileIn(finding.message);
          if (!file.empty() && std::find(files.begin(), files.end(), file) == files.end()) files.push_back(file);
        }
      }
      out += "             not judged: the snapshot lacks " + Join(files, ", ") + "\n";
      continue;
    }
    const std::vector<Cause> causes = CausesOf(group, verdict);
    for (std::size_t i = 0; i < causes.size() && i < kMaxCausesPerCheck; ++i) {
      out += "             " + CauseLine(causes[i]) + "\n";
    }
    if (causes.size() > kMaxCausesPerCheck) {
      out += fmt::format("             ... and {} more causes; the JUnit and JSON reports have every one\n",
                         causes.size() - kMaxCausesPerCheck);
    }
  }
  return out;
}

std::string RenderSnapshotGaps(const std::vector<CheckResult>& results, const std::string& run_profile,
                               const std::string& capture_profile, const TerminalStyle& style) {
  const auto lines = SnapshotGapLines(FindSnapshotGaps(results), run_profile, capture_profile);
  if (lines.empty()) return "";
  std::string out = Paint("Not judged: the snapshot lacks these files", "1", style) + "\n";
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) out += "  " + lines[i] + "\n";
  return out + "  -> " + lines.back() + "\n";
}

std::string RenderSummary(const RunTotals& totals, const TerminalStyle& style) {
  std::string line = fmt::format("{} checks ({} test cases): {} conform, {} non-conforming, {} not evaluated (error), {} skipped",
                                 totals.checks, totals.cases, totals.passed, totals.failed, totals.errored,
                                 totals.skipped);
  if (totals.regressed) line += fmt::format(", {} worse than the baseline", totals.regressed);
  const char* colour = totals.failed || totals.regressed ? "31" : totals.errored ? "35" : "32";
  return Paint(line, colour, style) + "\n";
}

namespace {

class TerminalReportSink : public ReportSink {
 public:
  TerminalReportSink(std::ostream& out, TerminalStyle style, bool require_all_nodes)
      : out_(out), style_(style), require_all_nodes_(require_all_nodes) {}
  Result<std::string> Write(const Run& run) const override {
    const auto capture_profile = run.record.snapshot_manifest.find("profile");
    out_ << RenderTerminalReport(run.cases, style_)
         << RenderSnapshotGaps(run.cases, run.record.profile,
                               capture_profile == run.record.snapshot_manifest.end() ? "" : capture_profile->second,
                               style_)
         << RenderSummary(CountChecks(run.cases), style_);
    const NodeCoverage coverage{run.record.nodes, run.record.not_covered};
    if (const std::string line = CoverageLine(coverage, require_all_nodes_); !line.empty()) out_ << line << "\n";
    return std::string();
  }

 private:
  std::ostream& out_;
  TerminalStyle style_;
  bool require_all_nodes_;
};

}  // namespace

std::unique_ptr<ReportSink> TerminalSink(std::ostream& out, TerminalStyle style, bool require_all_nodes) {
  return std::make_unique<TerminalReportSink>(out, style, require_all_nodes);
}

}  // namespace gpuconform
