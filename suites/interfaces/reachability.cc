#include "suites/interfaces/reachability.h"

#include <cstdio>

#include "harness/record_lines.h"
#include "harness/text_util.h"
#include "suites/interfaces/interfaces_checks.h"

namespace gpuconform::interfaces {

namespace {

std::string Ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", ms);
  return text;
}

}  // namespace

Result<NodeReach> ParseReach(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  if (records->empty()) return ErrorAt(origin, 1, "empty fabric reachability output");
  const RecordLine& header = records->front();
  if (header.kind != "fabric-reach" || header.Get("version") != "1") {
    return ErrorAt(origin, header.line,
                   "not a fabric reachability output (expected 'fabric-reach version=1'), got a '" + header.kind +
                       "' record");
  }
  NodeReach reach{header.Get("node"), header.Get("ifname"), header.Get("addr"), header.Get("skipped"),
                  header.Get("problem"), {}};
  for (std::size_t i = 1; i < records->size(); ++i) {
    const RecordLine& record = (*records)[i];
    if (record.kind != "reach") return ErrorAt(origin, record.line, "unknown record '" + record.kind + "'");
    auto to = RequiredField(record, "to", origin);
    if (!to) return Error{to.error()};
    auto ms = NumberField(record, "ms", origin);
    if (!ms) return Error{ms.error()};
    reach.attempts.push_back(
        {*to, record.Get("addr"), record.Get("result") == "ok", ms->value_or(0), record.Get("error")});
  }
  return reach;
}

CheckResult CheckFabricReachable(const std::map<std::string, Result<NodeReach>>& nodes, const Profile& profile) {
  if (!profile.nccl || profile.nccl->socket_ifname.empty()) {
    return Skipped(kSuite, kFabricReachable, "", "the profile names no fabric interface (nccl.socket_ifname)");
  }
  if (nodes.size() < 2) {
    return Skipped(kSuite, kFabricReachable, "", "one node in this run: reachability needs at least two");
  }
  std::vector<Finding> findings;
  std::vector<std::string> unknown;
  double worst_ms = 0;
  for (const auto& [node, reach] : nodes) {
    if (!reach) {
      unknown.push_back(reach.error());
      continue;
    }
    if (!reach->problem.empty()) {
      unknown.push_back(node + ": " + reach->problem);
      continue;
    }
    if (!reach->skipped.empty()) {
      unknown.push_back(node + ": not tested: " + reach->skipped);
      continue;
    }
    std::size_t tried = 0;
    for (const auto& attempt : reach->attempts) {
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
    if (tried + 1 < nodes.size()) {
      unknown.push_back(node + ": tried " + std::to_string(tried) + " of " + std::to_string(nodes.size() - 1) +
                        " other nodes (a node without a fabric address cannot be reached)");
    }
  }
  if (findings.empty() && !unknown.empty()) {
    return ErroredEach(kSuite, kFabricReachable, "", "untested", unknown);
  }
  CheckResult result = FromFindings(kSuite, kFabricReachable, "", findings);
  for (const auto& problem : unknown) result.findings.push_back({"untested", "", problem});
  result.measurements.push_back({"slowest_connect_ms", Ms(worst_ms), "ms", "", ""});
  return result;
}

}  // namespace gpuconform::interfaces
