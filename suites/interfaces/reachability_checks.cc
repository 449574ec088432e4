#include "suites/interfaces/reachability_checks.h"

#include <cstdio>
#include <set>

#include "harness/util/text_util.h"

namespace gpuconform::interfaces {

namespace {

std::string Ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", ms);
  return text;
}

}  // namespace

std::optional<std::string> ReachabilitySkipReason(const Profile& profile) {
  if (!profile.nccl || profile.nccl->socket_ifname.empty()) {
    return "the profile names no fabric interface (nccl.socket_ifname)";
  }
  return std::nullopt;
}

CheckResult CheckFabricReachable(const NodeFacts<NodeReach>& nodes, const Profile& profile) {
  const std::size_t node_count = nodes.read.size() + nodes.unread.size();
  if (node_count < 2) return Skipped("one node in this run: reachability needs at least two");
  std::set<std::string> names;
  for (const auto& [node, reach] : nodes.read) names.insert(node);
  for (const auto& [node, why] : nodes.unread) names.insert(node);
  std::vector<Finding> findings;
  std::vector<std::string> unknown;
  double worst_ms = 0;
  for (const auto& node : names) {
    if (const auto unread = nodes.unread.find(node); unread != nodes.unread.end()) {
      unknown.push_back(unread->second);
      continue;
    }
    const NodeReach& reach = nodes.read.at(node);
    if (!reach.problem.empty()) {
      unknown.push_back(node + ": " + reach.problem);
      continue;
    }
    if (!reach.skipped.empty()) {
      unknown.push_back(node + ": not tested: " + reach.skipped);
      continue;
    }
    std::size_t tried = 0;
    for (const auto& attempt : reach.attempts) {
      ++tried;
      if (attempt.ok) {
        worst_ms = std::max(worst_ms, attempt.ms);
        continue;
      }
      findings.push_back({"fabric-unreachable", node + "->" + attempt.to,
                          node + " cannot connect to " + attempt.to + " at " + attempt.address + " on " +
                              profile.nccl->socket_ifname + " (" + attempt.error + "): NCCL's bootstrap and socket transport would hang between them; check the route, "
                              "firewall and switch port on the fabric (ip route get, iptables -L, the port's link)"});
    }
    if (tried + 1 < node_count) {
      unknown.push_back(node + ": tried " + std::to_string(tried) + " of " + std::to_string(node_count - 1) +
                        " other nodes (a node without a fabric address cannot be reached)");
    }
  }
  if (findings.empty() && !unknown.empty()) return ErroredEach("untested", unknown);
  CheckResult result = FromFindings(findings);
  for (const auto& problem : unknown) result.findings.push_back({"untested", "", problem});
  result.measurements.push_back({"slowest_connect_ms", Ms(worst_ms), "ms", "", ""});
  return result;
}

}  // namespace gpuconform::interfaces
