#include "harness/terminal_printer.h"

#include <fmt/format.h>

#include <map>

namespace gpuconform {

namespace {

struct CheckGroup {
  std::string suite;
  std::string check;
  std::vector<const CheckResult*> cases;
};

// Consecutive cases of the same Suite.Check form one line (results are in suite order).
std::vector<CheckGroup> GroupByCheck(const std::vector<CheckResult>& results) {
  std::vector<CheckGroup> groups;
  for (const auto& result : results) {
    if (groups.empty() || groups.back().suite != result.suite || groups.back().check != result.check) {
      groups.push_back({result.suite, result.check, {}});
    }
    groups.back().cases.push_back(&result);
  }
  return groups;
}

struct GroupCounts {
  int pass = 0, fail = 0, error = 0, skip = 0;
};

GroupCounts Count(const CheckGroup& group) {
  GroupCounts counts;
  for (const auto* c : group.cases) {
    switch (c->verdict) {
      case Verdict::kPass: ++counts.pass; break;
      case Verdict::kFail: ++counts.fail; break;
      case Verdict::kError: ++counts.error; break;
      case Verdict::kSkip: ++counts.skip; break;
    }
  }
  return counts;
}

Verdict GroupVerdict(const GroupCounts& counts) {
  if (counts.fail) return Verdict::kFail;
  if (counts.error) return Verdict::kError;
  if (counts.pass) return Verdict::kPass;
  return Verdict::kSkip;
}

std::string Paint(const std::string& text, const char* ansi, const TerminalStyle& style) {
  return style.color ? std::string("\x1b[") + ansi + "m" + text + "\x1b[0m" : text;
}

std::string Tag(Verdict verdict, const TerminalStyle& style) {
  switch (verdict) {
    case Verdict::kPass: return Paint("[  PASS  ]", "32", style);
    case Verdict::kFail: return Paint("[  FAIL  ]", "31", style);
    case Verdict::kError: return Paint("[ ERROR  ]", "35", style);
    case Verdict::kSkip: return Paint("[  SKIP  ]", "33", style);
  }
  return "";
}

std::string NodeCounts(const CheckGroup& group, const GroupCounts& counts) {
  const bool per_node = !group.cases.front()->node.empty();
  if (!per_node || counts.skip == static_cast<int>(group.cases.size())) return "";
  const int total = static_cast<int>(group.cases.size());
  std::string text = fmt::format("{}/{} nodes conform", counts.pass, total - counts.skip);
  if (counts.fail) text += fmt::format(", {} non-conforming", counts.fail);
  if (counts.error) text += fmt::format(", {} not evaluated", counts.error);
  if (counts.skip) text += fmt::format(", {} skipped", counts.skip);
  return text;
}

}  // namespace

RunTotals CountChecks(const std::vector<CheckResult>& results) {
  RunTotals totals;
  totals.cases = static_cast<int>(results.size());
  for (const auto& group : GroupByCheck(results)) {
    ++totals.checks;
    switch (GroupVerdict(Count(group))) {
      case Verdict::kPass: ++totals.passed; break;
      case Verdict::kFail: ++totals.failed; break;
      case Verdict::kError: ++totals.errored; break;
      case Verdict::kSkip: ++totals.skipped; break;
    }
  }
  return totals;
}

std::string RenderTerminalReport(const std::vector<CheckResult>& results, const TerminalStyle& style) {
  std::string out;
  std::string current_suite;
  for (const auto& group : GroupByCheck(results)) {
    const GroupCounts counts = Count(group);
    const Verdict verdict = GroupVerdict(counts);
    const bool show = !style.quiet || verdict == Verdict::kFail || verdict == Verdict::kError;
    if (!show) continue;
    if (group.suite != current_suite) {
      current_suite = group.suite;
      out += Paint(group.suite, "1", style) + "\n";
    }
    const std::string counts_text = NodeCounts(group, counts);
    out += fmt::format("{} {:<34}{}\n", Tag(verdict, style), group.check, counts_text.empty() ? "" : " " + counts_text);
    for (const auto* c : group.cases) {
      if (c->verdict == Verdict::kPass) continue;
      // A skip that is the same on every node is said once.
      if (c->verdict == Verdict::kSkip && (c != group.cases.front() || verdict != Verdict::kSkip)) continue;
      for (const auto& finding : c->findings) out += "             " + finding.message + "\n";
    }
  }
  return out;
}

std::string RenderSummary(const RunTotals& totals, const TerminalStyle& style) {
  std::string line = fmt::format("{} checks ({} test cases): {} conform, {} non-conforming, {} not evaluated (error), {} skipped",
                                 totals.checks, totals.cases, totals.passed, totals.failed, totals.errored,
                                 totals.skipped);
  const char* colour = totals.failed ? "31" : totals.errored ? "35" : "32";
  return Paint(line, colour, style) + "\n";
}

int ExitStatusFor(const std::vector<CheckResult>& results) {
  bool any_error = false;
  for (const auto& result : results) {
    if (result.verdict == Verdict::kFail) return 1;
    any_error = any_error || result.verdict == Verdict::kError;
  }
  return any_error ? 3 : 0;
}

}  // namespace gpuconform
