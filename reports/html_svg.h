// The HTML report's charts (reports/html_report.h): the text and SVG primitives, and the
// sections drawn with them — each metric's distribution across nodes, busbw against message
// size, the change bars against the baseline and the trends over a history.
// Contract: pure, text in, HTML out. Every text from the run is escaped here. A chart's size
// does not depend on the number of nodes (values are binned, lists of names are capped), so a
// 10,000-node run draws charts as small as a 3-node one. SVG is inline and has no xmlns
// attribute (HTML5 does not need it), so the page names no URL at all.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "harness/core/verdict.h"
#include "reports/html_report.h"

namespace gpuconform::html {

// Text as HTML element content or an attribute value: & < > " ' escaped.
std::string Escape(std::string_view text);
// A number short enough for a label: "0.096", "1500", "8.29e+10".
std::string FormatNumber(double value);
// A change fraction as a signed percentage: -0.2 -> "-20.0%".
std::string FormatPercent(double fraction);
// The CSS class of a verdict ("v-fail"); the stylesheet gives each its colour.
std::string VerdictClass(Verdict verdict);
// The verdict's colour for SVG fills, the same as the stylesheet's.
std::string_view VerdictColour(Verdict verdict);
// Text cut at `limit` bytes (on a UTF-8 character boundary), saying how much was cut: a
// cluster-wide message that lists 10,000 paths must not become 850 kB of page.
std::string Clipped(std::string_view text, std::size_t limit);
// "a, b, c and 7 more": names listed up to `limit`, so a list never grows with the fleet.
std::string NamesClipped(const std::vector<std::string>& names, std::size_t limit);

// Which node a measurement is about, and the metric's name without that node's prefix: a
// per-node case's own node ("node1.kernel" on node1 is "kernel"), or for a cluster-wide case
// a known node whose name prefixes the metric's ("node2.visibility_latency_ms"). Node names
// may contain dots, so the longest known prefix wins. node is "" when no node prefixes it.
struct MetricOwner {
  std::string node;
  std::string metric;
};
MetricOwner OwnerOf(const CheckResult& result, const std::string& name,
                    const std::unordered_set<std::string>& known_nodes);

// The sections drawn with SVG. Each returns a whole <section> with its id.
std::string DistributionSection(const std::vector<CheckResult>& results,
                                const std::unordered_set<std::string>& known_nodes);  // id="distributions"
std::string BusbwSection(const std::vector<CheckResult>& results);                    // id="busbw"
std::string ChangesSection(const std::vector<CheckResult>& results,
                           const std::unordered_set<std::string>& known_nodes);  // id="changes"
std::string TrendsSection(const std::vector<MetricTrend>& trends);               // id="trends"; "" when none

// "64MiB" -> 67108864; nothing for a size it cannot read.
std::optional<double> SizeInBytes(std::string_view text);

}  // namespace gpuconform::html
