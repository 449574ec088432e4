// A short Markdown summary of one run (`run --summary-md FILE`) for CI job pages (GitHub's
// $GITHUB_STEP_SUMMARY, GitLab's job summaries): the exit status and what it means, the
// counts, and one row per non-conforming or unevaluated check and reason, its nodes in Slurm
// hostlist notation. Contract: pure; at most kMaxSummaryRows rows per table (the rest is
// counted), each message cut to kMaxMessageChars, so 10,000 nodes still give a few kilobytes.
#pragma once

#include <string>
#include <vector>

#include "harness/verdict.h"

namespace gpuconform {

inline constexpr std::size_t kMaxSummaryRows = 25;
inline constexpr std::size_t kMaxMessageChars = 200;

struct SummaryHeading {
  std::string profile;
  std::string mode;  // "live" or "snapshot DIR"
  int node_count = 0;
  int exit_status = 0;
  std::string capture_profile;  // a replayed snapshot's manifest profile; empty when live
};

std::string RenderMarkdownSummary(const std::vector<CheckResult>& results, const SummaryHeading& heading);

}  // namespace gpuconform
