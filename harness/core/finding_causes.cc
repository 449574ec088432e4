#include "harness/core/finding_causes.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "harness/util/hostlist.h"

namespace gpuconform {

namespace {

std::string WithoutNode(const std::string& message, const std::string& node) {
  if (node.empty()) return message;
  std::string pattern;
  std::size_t start = 0;
  for (auto at = message.find(node); at != std::string::npos; at = message.find(node, start)) {
    // Only the whole name: "node1" must not match inside "node10".
    const std::size_t end = at + node.size();
    const bool whole = (at == 0 || !std::isalnum(static_cast<unsigned char>(message[at - 1]))) &&
                       (end == message.size() || !std::isdigit(static_cast<unsigned char>(message[end])));
    pattern += message.substr(start, at - start) + (whole ? "\x01" : node);
    start = end;
  }
  return pattern + message.substr(start);
}

// A cluster-wide case names each node in its findings' entities ("node3", not "node3/gpu1"),
// or, where the entity is the whole cluster, at the start of the message ("node3: ...", as
// the architecture asks every message to start).
std::string NodeOfClusterFinding(const Finding& finding) {
  if (finding.entity.find('/') != std::string::npos) return "";
  if (finding.entity != "cluster") return finding.entity;
  const auto colon = finding.message.find(": ");
  if (colon == std::string::npos || colon == 0) return "";
  const std::string lead = finding.message.substr(0, colon);
  const bool one_word = std::all_of(lead.begin(), lead.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
  return one_word ? lead : "";
}

}  // namespace

std::vector<Cause> GroupCauses(const std::vector<NodeFinding>& findings) {
  std::vector<Cause> causes;
  std::map<std::string, std::size_t> index;
  for (const auto& [case_node, finding] : findings) {
    const std::string node = !case_node.empty() ? case_node : NodeOfClusterFinding(*finding);
    const std::string pattern = WithoutNode(finding->message, node);
    // The code is part of the key: the same words under two codes are two causes.
    auto [it, added] = index.try_emplace(finding->code.str() + "\n" + pattern, causes.size());
    if (added) causes.push_back({pattern, {}, finding});
    if (!node.empty()) causes[it->second].nodes.push_back(node);
  }
  return causes;
}

std::string CauseLine(const Cause& cause) {
  const std::string nodes = CompressHostlist(cause.nodes);
  std::string line;
  bool named = false;
  for (char c : cause.pattern) {
    if (c == '\x01') {
      line += cause.nodes.size() == 1 ? cause.nodes.front() : nodes;
      named = true;
    } else {
      line += c;
    }
  }
  if (!named && cause.nodes.size() > 1) line += " (on " + std::to_string(cause.nodes.size()) + " nodes: " + nodes + ")";
  return line;
}

}  // namespace gpuconform
