#include "suites/interfaces/reachability.h"

#include <charconv>
#include <cstdio>

#include "harness/text_util.h"
#include "suites/interfaces/interfaces_checks.h"

namespace gpuconform::interfaces {

namespace {

// `key=value` and `key="value with spaces"` fields after the record name.
Result<std::map<std::string, std::string>> Fields(std::string_view line, int number, const std::string& origin) {
  std::map<std::string, std::string> fields;
  std::size_t i = line.find(' ');
  while (i != std::string_view::npos && i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    if (i >= line.size()) break;
    const std::size_t equals = line.find('=', i);
    if (equals == std::string_view::npos) return ErrorAt(origin, number, "expected key=value in " + QuoteForMessage(line.substr(i)));
    const std::string key(line.substr(i, equals - i));
    std::size_t end;
    std::string value;
    if (equals + 1 < line.size() && line[equals + 1] == '"') {
      end = line.find('"', equals + 2);
      if (end == std::string_view::npos) return ErrorAt(origin, number, "unterminated quoted value for " + key);
      value = std::string(line.substr(equals + 2, end - equals - 2));
      ++end;
    } else {
      end = std::min(line.find(' ', equals), line.size());
      value = std::string(line.substr(equals + 1, end - equals - 1));
    }
    fields[key] = value;
    i = end;
  }
  return fields;
}

std::string Ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", ms);
  return text;
}

}  // namespace

Result<NodeReach> ParseReach(const std::string& text, const std::string& origin) {
  NodeReach reach;
  int number = 0;
  bool header = false;
  for (std::string_view line : SplitLines(text)) {
    ++number;
    if (Trim(line).empty()) continue;
    auto parsed = Fields(line, number, origin);
    if (!parsed) return Error{parsed.error()};
    std::map<std::string, std::string>& fields = parsed.value();
    if (!header) {
      if (!StartsWith(line, "fabric-reach ") || fields["version"] != "1") {
        return ErrorAt(origin, number, "not a fabric reachability output (expected 'fabric-reach version=1'), got " +
                                           QuoteForMessage(line));
      }
      header = true;
      reach.node = fields["node"];
      reach.ifname = fields["ifname"];
      reach.address = fields["addr"];
      reach.skipped = fields["skipped"];
      reach.problem = fields["problem"];
      continue;
    }
    if (!StartsWith(line, "reach ")) return ErrorAt(origin, number, "unknown record " + QuoteForMessage(line));
    ReachAttempt attempt;
    attempt.to = fields["to"];
    attempt.address = fields["addr"];
    attempt.ok = fields["result"] == "ok";
    const std::string ms = fields["ms"];
    std::from_chars(ms.data(), ms.data() + ms.size(), attempt.ms);
    attempt.error = fields["error"];
    if (attempt.to.empty()) return ErrorAt(origin, number, "a reach record without to=");
    reach.attempts.push_back(attempt);
  }
  if (!header) return ErrorAt(origin, 1, "empty fabric reachability output");
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
    return Errored(kSuite, kFabricReachable, "", "untested", Join(unknown, "; "));
  }
  CheckResult result = FromFindings(kSuite, kFabricReachable, "", findings);
  for (const auto& problem : unknown) result.findings.push_back({"untested", "", problem});
  result.measurements.push_back({"slowest_connect_ms", Ms(worst_ms), "ms", "", ""});
  return result;
}

}  // namespace gpuconform::interfaces
