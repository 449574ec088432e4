#include "suites/allreduce/latency_checks.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "harness/util/text_util.h"
#include "probes/allreduce_sweep/latency_profile.h"
#include "suites/allreduce/allreduce_checks.h"

namespace gpuconform::allreduce {

using allreduce_sweep::kLargestLatencyBytes;
using allreduce_sweep::LatencyCeiling;
using allreduce_sweep::LatencyCeilings;

namespace {

std::string Microseconds(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), value >= 100 ? "%.0f" : "%.1f", value);
  return text;
}

std::string Nodes(int count) {
  if (count <= 0) return "an unknown number of nodes";
  return std::to_string(count) + (count == 1 ? " node" : " nodes");
}

std::string CeilingNodeCounts(const std::vector<LatencyCeiling>& ceilings) {
  std::set<int> counts;
  for (const auto& ceiling : ceilings) counts.insert(ceiling.nodes);
  std::vector<std::string> words;
  for (int count : counts) words.push_back(std::to_string(count));
  return Join(words, ", ");
}

}  // namespace

CheckResult CheckSmallMessageLatency(const nccl_tests::BandwidthTable& table, const Profile& profile) {
  const std::vector<LatencyCeiling>& all = profile.GetOrDefault<LatencyCeilings>().ceilings;
  if (all.empty()) {
    return Skipped("profile " + profile.name + " states no allreduce latency ceiling (allreduce_latency)");
  }
  std::vector<LatencyCeiling> ceilings;
  for (const auto& ceiling : all) {
    // One ceiling at an unknown node count is still the one to judge by; several are not.
    if (ceiling.nodes == table.nodes || (table.nodes <= 0 && all.size() == 1)) ceilings.push_back(ceiling);
  }
  if (ceilings.empty()) {
    return Skipped("profile " + profile.name + " states no allreduce latency ceiling for " +
                   Nodes(table.nodes) +
                   " (it has ceilings for " + CeilingNodeCounts(all) + " nodes)");
  }
  const bool has_band = std::any_of(table.rows.begin(), table.rows.end(),
                                    [](const auto& row) { return row.size_bytes <= kLargestLatencyBytes; });
  if (!has_band) {
    return Skipped(table.origin + ": the sweep measured no size of 64 KiB or less, so small-message latency was not "
                                  "measured (nccl-tests: start at -b 8)");
  }
  std::vector<Finding> high;
  std::vector<std::string> missing;
  std::vector<Measurement> measurements;
  for (const auto& ceiling : ceilings) {
    const auto row = std::find_if(table.rows.begin(), table.rows.end(),
                                  [&](const auto& r) { return r.size_bytes == ceiling.size_bytes; });
    if (row == table.rows.end()) {
      missing.push_back("the sweep has no row at " + HumanSize(ceiling.size_bytes));
      continue;
    }
    measurements.push_back({"allreduce_time_us@" + std::to_string(ceiling.size_bytes) + "B",
                            Microseconds(row->time_us), "us",
                            "<= " + Microseconds(ceiling.time_ceiling_us), ceiling.source});
    if (row->time_us <= ceiling.time_ceiling_us) continue;
    high.push_back({"collective-latency-high", "cluster",
                    table.origin + ": one allreduce of " + HumanSize(ceiling.size_bytes) + " took " +
                        Microseconds(row->time_us) + " us across " + Nodes(table.nodes) + ", above the ceiling of " +
                        Microseconds(ceiling.time_ceiling_us) + " us (source: " + ceiling.source + ")"});
  }
  CheckResult result = Passed();
  if (!high.empty()) {
    for (const auto& gap : missing) high.push_back({"size-not-measured", "cluster", table.origin + ": " + gap});
    result = Failed(std::move(high));
  } else if (!missing.empty()) {
    result = Errored("size-not-measured", table.origin + ": " + Join(missing, "; "));
  }
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::allreduce
