#include "suites/nvswitch/p2p_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "harness/util/text_util.h"
#include "suites/nvswitch/nvswitch_checks.h"

namespace gpuconform::nvswitch {

namespace {

// The error, failure or skip every P2P check shares where the report has no GPU pair, or
// nullopt when it can be judged.
std::optional<CheckResult> NoPairs(const std::string& node, const P2pReport& report, const Profile& profile) {
  if (report.device_count == 0) {
    return Errored("no-gpus", node + ": the CUDA runtime sees no GPU, so no pair could be judged");
  }
  if (report.device_count == 1) {
    // One GPU where the profile expects more is a contradiction, not "no pairs to judge".
    if (auto finding = GpuCountContradiction(node, "seen by the CUDA runtime", 1, profile)) return Failed({*finding});
    return Skipped("one GPU on node " + node + ": no pairs");
  }
  return std::nullopt;
}

std::string PairName(const P2pReport& report, const GpuPair& pair, const char* arrow) {
  return report.GpuName(pair.first) + " " + arrow + " " + report.GpuName(pair.second);
}

std::string PairEntity(const std::string& node, const GpuPair& pair) {
  return fmt::format("{}/gpu{}-gpu{}", node, pair.first, pair.second);
}

// Pairs with peer access both ways (the ones the probe measures) that have no one-way
// measurement, with why where the probe said.
std::vector<std::string> Unmeasured(const P2pReport& report) {
  std::vector<std::string> missing;
  for (const auto& [pair, access] : report.peer_access) {
    const auto back = report.peer_access.find({pair.second, pair.first});
    const bool both = access && back != report.peer_access.end() && back->second;
    if (!both || report.unidirectional_gb_per_s.count(pair)) continue;
    const auto error = report.errors.find(pair);
    missing.push_back(PairName(report, pair, "->") + (error == report.errors.end() ? "" : " (" + error->second + ")"));
  }
  return missing;
}

// The error a check gives when it found nothing wrong but could not see every pair.
std::optional<CheckResult> IncompleteError(const std::string& node, const P2pReport& report) {
  const auto missing = Unmeasured(report);
  if (missing.empty() && report.stopped.empty()) return std::nullopt;
  std::string message = node + ": the P2P bandwidth of " + std::to_string(missing.size()) +
                        " GPU pair(s) with peer access was not measured";
  if (!report.stopped.empty()) message += " (the probe stopped: " + report.stopped + ")";
  if (!missing.empty()) {
    std::vector<std::string> shown(missing.begin(), missing.begin() + std::min<std::size_t>(missing.size(), 8));
    message += ": " + Join(shown, ", ") + (missing.size() > shown.size() ? ", ..." : "");
  }
  return Errored("not-measured", message + "; capture again on an idle node");
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

CheckResult CheckPeerAccessAllPairs(const std::string& node, const P2pReport& report, const Profile& profile) {
  if (auto result = NoPairs(node, report, profile)) return *result;
  std::vector<Finding> findings;
  std::vector<std::string> not_asked;
  int with_access = 0;
  const int n = report.device_count;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const auto forward = report.peer_access.find({a, b});
      const auto backward = report.peer_access.find({b, a});
      if (forward == report.peer_access.end()) not_asked.push_back(PairName(report, {a, b}, "->"));
      if (backward == report.peer_access.end()) not_asked.push_back(PairName(report, {b, a}, "->"));
      const bool ab = forward != report.peer_access.end() && forward->second;
      const bool ba = backward != report.peer_access.end() && backward->second;
      with_access += (ab ? 1 : 0) + (ba ? 1 : 0);
      const bool ab_denied = forward != report.peer_access.end() && !forward->second;
      const bool ba_denied = backward != report.peer_access.end() && !backward->second;
      if (!ab_denied && !ba_denied) continue;
      const std::string which = ab_denied && ba_denied ? "in either direction"
                                : ab_denied ? "from GPU " + std::to_string(a) + " to GPU " + std::to_string(b)
                                            : "from GPU " + std::to_string(b) + " to GPU " + std::to_string(a);
      findings.push_back({"no-peer-access", PairEntity(node, {a, b}),
                          fmt::format("{}: {} and {} have no peer access {} (cudaDeviceCanAccessPeer 0), expected "
                                      "every pair to map the other's memory: CUDA and NCCL copy between them "
                                      "through host memory; check FabricRegistered and `nvidia-smi topo -p2p r`, "
                                      "then the fabric manager, or for PCIe peers ACS and the IOMMU setting",
                                      node, report.GpuName(a), report.GpuName(b), which)});
    }
  }
  if (findings.empty() && !not_asked.empty()) {
    return Errored("not-asked",
                   node + ": cuda-p2p.txt has no peer-access answer for " + std::to_string(not_asked.size()) +
                       " ordered pair(s), e.g. " + not_asked.front() + ": the file is truncated");
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back(
      {node + ".p2p_pairs_with_peer_access", std::to_string(with_access), "", "== " + std::to_string(n * (n - 1)), ""});
  return result;
}

CheckResult CheckP2pBandwidthAtFloor(const std::string& node, const P2pReport& report, const Profile& profile) {
  if (auto result = NoPairs(node, report, profile)) return *result;
  const double floor_gb_per_s = profile.nvlink->p2p_bandwidth_floor_gb_per_s;
  std::vector<Finding> findings;
  std::vector<double> values;
  // One finding per GPU pair, naming each direction under the floor: a slow pair is usually
  // slow both ways, and one line says so.
  std::map<GpuPair, std::vector<std::string>> slow_directions;
  for (const auto& [pair, gb_per_s] : report.unidirectional_gb_per_s) {
    values.push_back(gb_per_s);
    if (gb_per_s >= floor_gb_per_s) continue;
    slow_directions[std::minmax(pair.first, pair.second)].push_back(
        fmt::format("{} copies at {:.1f} GB/s", PairName(report, pair, "->"), gb_per_s));
  }
  for (const auto& [pair, directions] : slow_directions) {
    findings.push_back({"p2p-below-floor", PairEntity(node, pair),
                        fmt::format("{}: {} one way (cudaMemcpyPeerAsync, copy engine, median of {} MiB copies), "
                                    "expected >= {} GB/s (profile {}): NVLinks between them are down or trained "
                                    "slow, or the copy goes over PCIe; see AllLinksActive and `nvidia-smi nvlink -s`, "
                                    "then reset the GPUs",
                                    node, Join(directions, " and "), report.buffer_bytes / (1024 * 1024),
                                    floor_gb_per_s, profile.name)});
  }
  CheckResult result = FromFindings(std::move(findings));
  if (result.verdict == Verdict::kPass) {
    if (auto incomplete = IncompleteError(node, report))
      result = *incomplete;
    else if (values.empty()) {
      result = Errored("not-measured",
                       node +
                           ": no GPU pair has peer access, so no P2P bandwidth was measured (PeerAccessAllPairs "
                           "says which)");
    }
  }
  if (!values.empty()) {
    result.measurements.push_back({node + ".p2p_unidirectional_min_gb_per_s",
                                   fmt::format("{:.1f}", *std::min_element(values.begin(), values.end())), "GB/s",
                                   fmt::format(">= {}", floor_gb_per_s), profile.nvlink->source});
  }
  return result;
}

CheckResult CheckP2pBandwidthUniform(const std::string& node, const P2pReport& report, const Profile& profile) {
  if (auto result = NoPairs(node, report, profile)) return *result;
  const double floor_gb_per_s = profile.nvlink->p2p_bandwidth_floor_gb_per_s;
  std::set<GpuPair> below_floor;  // unordered, smaller index first
  for (const auto& [pair, gb_per_s] : report.unidirectional_gb_per_s) {
    if (gb_per_s < floor_gb_per_s) below_floor.insert(std::minmax(pair.first, pair.second));
  }
  std::vector<Finding> findings;
  int judged = 0;
  const std::vector<std::pair<const char*, const std::map<GpuPair, double>*>> modes = {
      {"one way", &report.unidirectional_gb_per_s}, {"both ways", &report.bidirectional_gb_per_s}};
  std::vector<Measurement> measurements;
  for (const auto& [mode, values] : modes) {
    std::vector<double> kept;
    for (const auto& [pair, gb_per_s] : *values) {
      if (!below_floor.count(std::minmax(pair.first, pair.second))) kept.push_back(gb_per_s);
    }
    if (kept.empty()) continue;
    judged += static_cast<int>(kept.size());
    const double median = Median(kept);
    const bool both = std::string(mode) == "both ways";
    measurements.push_back({fmt::format("{}.p2p_{}_median_gb_per_s", node, both ? "bidirectional" : "unidirectional"),
                            fmt::format("{:.1f}", median), "GB/s", "", ""});
    for (const auto& [pair, gb_per_s] : *values) {
      if (below_floor.count(std::minmax(pair.first, pair.second))) continue;
      if (gb_per_s >= kUniformMinFractionOfMedian * median) continue;
      findings.push_back({"p2p-not-uniform", PairEntity(node, pair),
                          fmt::format("{}: {} copies at {:.1f} GB/s {}, {:.2f}x the node's median of {:.1f} GB/s, "
                                      "expected >= {}x: this pair is slower than its siblings (one NVLink or "
                                      "NVSwitch port degraded, or a GPU clocked down); compare `nvidia-smi nvlink "
                                      "-s` and `nvidia-smi -q -d PERFORMANCE` of both GPUs",
                                      node, PairName(report, pair, both ? "<->" : "->"), gb_per_s, mode,
                                      gb_per_s / median, median, kUniformMinFractionOfMedian)});
    }
  }
  CheckResult result = FromFindings(std::move(findings));
  if (result.verdict == Verdict::kPass) {
    if (auto incomplete = IncompleteError(node, report))
      result = *incomplete;
    else if (judged == 0) {
      result = Errored("not-measured",
                       node + ": no P2P bandwidth above the floor was measured, so there is nothing to compare");
    }
  }
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::nvswitch
