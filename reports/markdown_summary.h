// A short Markdown summary of one run (`run --summary-md FILE`) for CI job pages (GitHub's
// $GITHUB_STEP_SUMMARY, GitLab's job summaries): the exit status and what it means, the
// counts, and one row per non-conforming or unevaluated check and reason, its nodes in Slurm
// hostlist notation. Contract: pure; at most kMaxSummaryRows rows per table (the rest is
// counted), each message cut to kMaxMessageChars, so 10,000 nodes still give a few kilobytes.
#pragma once

#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "results/run.h"

namespace gpuconform {

inline constexpr std::size_t kMaxSummaryRows = 25;
inline constexpr std::size_t kMaxMessageChars = 200;

// The heading states the exit status in the run's record, its profile, node count and mode,
// and the profile a replayed snapshot was captured under (the manifest's), where it differs.
std::string RenderMarkdownSummary(const Run& run);

}  // namespace gpuconform
