#include "suites/allreduce/blame.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "harness/util/text_util.h"
#include "suites/allreduce/allreduce_checks.h"

namespace gpuconform::allreduce {

namespace {

// A node the reachability gate left out of the sweep: it could not be measured with the
// others because a peer cannot reach it (or it cannot reach one) over the fabric.
Finding ExcludedFinding(const ExcludedNode& excluded, const std::map<std::string, std::string>& traced_to_links) {
  if (const auto traced = traced_to_links.find(excluded.node); traced != traced_to_links.end()) {
    return {"fabric-unreachable", traced->second,
            excluded.node + ": left out of the MPI sweep, which ran on the other nodes: " + excluded.why +
                "; the isolation traced it to " + traced->second +
                " (AllreduceBandwidth.MpiFaultIsolation): the path, not the node, so the node is not drained; fix the "
                "route, firewall or switch ports between them"};
  }
  return {"fabric-unreachable", excluded.node,
          excluded.node + ": left out of the MPI sweep, which ran on the other nodes: " + excluded.why +
              "; Open MPI ends the whole job at the first peer it cannot reach, so training jobs that include " +
              excluded.node + " fail the same way; fix the route, firewall or switch port between the pair "
              "(Interfaces.FabricReachable lists every pair), or drain the node"};
}

}  // namespace

CheckResult CheckNoSlowNode(const std::vector<PairResult>& pairs, const std::vector<ExcludedNode>& excluded,
                            double slow_fraction, const std::map<std::string, std::string>& traced_to_links) {
  if (!excluded.empty()) {
    CheckResult result = CheckNoSlowNode(pairs, {}, slow_fraction);
    std::vector<Finding> findings;
    for (const auto& node : excluded) findings.push_back(ExcludedFinding(node, traced_to_links));
    if (result.verdict == Verdict::kFail) findings.insert(findings.end(), result.findings.begin(), result.findings.end());
    result.verdict = Verdict::kFail;
    result.findings = std::move(findings);
    return result;
  }
  if (pairs.size() < 3) {
    return Skipped("blame needs three or more nodes (pairs to compare)");
  }
  const double fastest = Fastest(pairs);
  CheckResult result = Passed();
  for (const auto& pair : pairs) {
    if (!pair.failure.empty()) continue;  // nothing measured; its finding says why
    result.measurements.push_back({"pair_busbw@" + pair.node_a + "+" + pair.node_b,
                                   fmt::format("{:.3f}", pair.busbw_gb_per_s), "GB/s",
                                   fmt::format(">= {:.3f} ({} x the fastest pair)", slow_fraction * fastest, slow_fraction),
                                   "pairwise MPI_Allreduce of " + HumanSize(pair.size_bytes)});
  }
  const auto counts = CountPairs(pairs, fastest, slow_fraction);
  std::vector<std::string> culprits;
  for (const auto& [node, count] : counts) {
    if (AllSlow(count)) culprits.push_back(node);
  }
  auto describe = [&](const PairResult& pair) {
    if (!pair.failure.empty()) return fmt::format("{}+{} did not complete ({})", pair.node_a, pair.node_b, pair.failure);
    return fmt::format("{}+{} {:.3f} GB/s", pair.node_a, pair.node_b, pair.busbw_gb_per_s);
  };
  auto is_culprit = [&](const std::string& node) {
    return std::find(culprits.begin(), culprits.end(), node) != culprits.end();
  };
  std::vector<Finding> findings;
  for (const auto& culprit : culprits) {
    std::vector<std::string> slow_text;
    for (const auto& pair : pairs) {
      if (pair.node_a == culprit || pair.node_b == culprit) slow_text.push_back(describe(pair));
    }
    findings.push_back({"slow-node", culprit,
                        culprit + ": every pair it is in is slow (" + Join(slow_text, ", ") +
                            (fastest > 0 ? fmt::format(") against {:.3f} GB/s for the fastest pair: ", fastest)
                                         : std::string("), and no pair completed: ")) +
                            culprit +
                            "'s fabric link is the likely culprit; check its NIC's rate and errors, the cable and the "
                            "switch port"});
  }
  for (const auto& pair : pairs) {
    if (!IsSlow(pair, fastest, slow_fraction) || is_culprit(pair.node_a) || is_culprit(pair.node_b)) continue;
    findings.push_back({"slow-link", pair.node_a + "+" + pair.node_b,
                        pair.node_a + "+" + pair.node_b + ": " + describe(pair) +
                            (pair.failure.empty()
                                 ? fmt::format(" against {:.3f} GB/s for the fastest pair: the link between them is slow",
                                               fastest)
                                 : std::string(": the path between them drops or stalls traffic"))});
  }
  if (findings.empty()) return result;
  result.verdict = Verdict::kFail;
  result.findings = std::move(findings);
  return result;
}

}  // namespace gpuconform::allreduce
