#include "reports/markdown_summary.h"

#include "harness/core/snapshot_gaps.h"

#include <map>
#include <tuple>

#include "harness/util/hostlist.h"
#include "results/run_totals.h"

namespace gpuconform {

namespace {

// A table cell: one line, no pipes, short.
std::string Cell(const std::string& text) {
  std::string cell;
  for (const char c : text.substr(0, kMaxMessageChars)) {
    if (c == '\n' || c == '\r' || c == '\t') {
      cell += ' ';
    } else if (c == '|') {
      cell += "\\|";
    } else {
      cell += c;
    }
  }
  if (text.size() > kMaxMessageChars) cell += " …";
  return cell;
}

// One row: a check and the first reason code of its cases, the nodes that share it, and the
// first such case's message as the example.
struct Row {
  std::vector<std::string> nodes;
  std::string example;
};

struct SummaryHeading {
  std::string profile;
  std::string mode;  // "live" or "snapshot DIR"
  int node_count = 0;
  int exit_status = 0;
  std::string capture_profile;  // a replayed snapshot's manifest profile; empty when live
};


std::string Table(const std::vector<CheckResult>& results, Verdict verdict, const std::string& title) {
  std::vector<std::tuple<std::string, std::string>> order;
  std::map<std::tuple<std::string, std::string>, Row> rows;
  for (const auto& result : results) {
    if (result.verdict != verdict || OnlySnapshotGaps(result)) continue;  // said once, below
    const std::string code = result.findings.empty() ? "" : std::string(result.findings.front().code.code());
    const auto key = std::make_tuple(result.suite + "." + result.check, code);
    auto [it, added] = rows.try_emplace(key);
    if (added) {
      order.push_back(key);
      it->second.example = result.findings.empty() ? "" : result.findings.front().message;
    }
    if (!result.node.empty()) it->second.nodes.push_back(result.node);
  }
  if (order.empty()) return "";
  std::string text = "\n### " + title + "\n\n| check | reason | nodes | example |\n|---|---|---|---|\n";
  for (std::size_t i = 0; i < order.size() && i < kMaxSummaryRows; ++i) {
    const auto& [check, code] = order[i];
    const Row& row = rows.at(order[i]);
    const std::string nodes = row.nodes.empty() ? "cluster" : CompressHostlist(row.nodes);
    text += "| `" + Cell(check) + "` | " + (code.empty() ? "" : "`" + code + "`") + " | " + Cell(nodes) + " | " +
            Cell(row.example) + " |\n";
  }
  if (order.size() > kMaxSummaryRows) {
    text += "\n… and " + std::to_string(order.size() - kMaxSummaryRows) + " more; the JUnit report has them all.\n";
  }
  return text;
}

}  // namespace

std::string RenderMarkdownSummary(const Run& run) {
  const std::vector<CheckResult>& results = run.cases;
  const auto manifest_profile = run.record.snapshot_manifest.find("profile");
  const SummaryHeading heading{run.record.profile, run.record.mode, static_cast<int>(run.record.nodes.size()),
                               run.record.exit_status,
                               manifest_profile == run.record.snapshot_manifest.end() ? "" : manifest_profile->second};
  const RunTotals totals = CountChecks(results);
  std::string text =
      "## gpuconform: " + ExitMeaning(heading.exit_status) + " (exit " + std::to_string(heading.exit_status) + ")\n\n";
  text += "Profile `" + Cell(heading.profile) + "`, " + std::to_string(heading.node_count) + " node(s), " +
          Cell(heading.mode) + ".\n\n";
  text +=
      "| checks | conform | non-conforming | worse than baseline | not evaluated | skipped |\n"
      "|---|---|---|---|---|---|\n";
  text += "| " + std::to_string(totals.checks) + " | " + std::to_string(totals.passed) + " | " +
          std::to_string(totals.failed) + " | " + std::to_string(totals.regressed) + " | " +
          std::to_string(totals.errored) + " | " + std::to_string(totals.skipped) + " |\n";
  text += Table(results, Verdict::kFail, "Non-conforming");
  text += Table(results, Verdict::kRegression, "Worse than the baseline");
  text += Table(results, Verdict::kError, "Not evaluated");
  const auto gaps = SnapshotGapLines(FindSnapshotGaps(results), heading.profile, heading.capture_profile);
  if (!gaps.empty()) {
    text += "\n### Not judged: the snapshot lacks these files\n\n";
    for (std::size_t i = 0; i + 1 < gaps.size(); ++i) text += "- `" + Cell(gaps[i].substr(0, gaps[i].find(':'))) + "`" +
                                                             Cell(gaps[i].substr(gaps[i].find(':'))) + "\n";
    text += "\n" + Cell(gaps.back()) + "\n";
  }
  return text;
}

}  // namespace gpuconform
