// How the facts layer's typed readers (probes/<tool>/<tool>_facts.h, facts/*.h) read the run's
// raw outputs, and how a suite's glue reads facts over every node: one node's output through
// its parser with the origin its messages name, or why there is none; a cluster output's lines
// parsed once per run; one reader over every node as the NodeFacts a cluster-wide check
// judges; and the reason code of a fact that could not be read. Each fact comes from the run's
// fact cache (ClusterRaw::facts), so a check that reads it again does not parse it again. The
// helpers live in the core so that every tool's reader can use them; their namespace is the
// facts layer's.
#pragma once

#include <string>
#include <type_traits>

#include "harness/core/cluster_raw.h"
#include "harness/core/node_facts.h"
#include "harness/core/probe.h"
#include "harness/core/raw_text.h"
#include "harness/core/reason_code.h"
#include "harness/util/result.h"

namespace gpuconform::facts {


// Where an output came from, for messages: the snapshot file it was read from, else node/file.
inline std::string OriginOf(const RawOutput& out, const std::string& node, const ProbeSpec& spec) {
  return out.origin.empty() ? node + "/" + spec.file : out.origin;
}

// `spec`'s output on `node` through `parse`, or why it has none (UsableText: `missing_tool` says
// what an absent tool means on the node).
template <typename T>
Result<T> ParseNodeOutput(const ClusterRaw& raw, const std::string& node, const ProbeSpec& spec,
                          const std::string& missing_tool,
                          Result<T> (*parse)(const std::string& text, const std::string& origin)) {
  const RawOutput out = raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, missing_tool);
  if (!text) return Error{text.error()};
  return parse(*text, OriginOf(out, node, spec));
}


// A node's output of one of gpuconform's own collective probes (checkpoint.txt, torchrun.txt)
// through `parse(text, node, "<node>/<file>")`, or why there is none: the probe's own detail (or the file
// and its status where it says nothing), leading with the node so a report can group the nodes
// that share it.
template <typename T>
Result<T> ParseOwnProbeOutput(const ClusterRaw& raw, const std::string& node, const ProbeSpec& spec,
                              Result<T> (*parse)(const std::string& text, const std::string& node,
                                                 const std::string& origin)) {
  const RawOutput out = raw.NodeOutput(node, spec.id);
  if (!out.ok()) {
    std::string problem = out.detail.empty() ? "no " + spec.file + " (" + ProbeStatusName(out.status) + ")" : out.detail;
    if (!problem.starts_with(node + ":")) problem = node + ": " + problem;
    return Error{problem};
  }
  return parse(out.text, node, node + "/" + spec.file);  // the file, live or replayed
}

// `out` through `parse(text, origin)`, or the probe's own detail where the output was not
// obtained.
template <typename Parse>
auto ParseOutput(const RawOutput& out, Parse parse) -> decltype(parse(out.text, out.origin)) {
  if (!out.ok()) return Error{out.detail};
  return parse(out.text, out.origin);
}

// The lines a probe printed into cluster output `probe_id`, through `parse(text)` whatever the
// probe's status (a probe that failed may still say something), parsed once per run.
template <typename Parse>
const auto& ReadClusterLines(const ClusterRaw& raw, const std::string& kind, const std::string& probe_id, Parse parse) {
  using Lines = decltype(parse(std::string()));
  return raw.facts.Get<Lines>(kind, "", [&] { return parse(raw.ClusterOutput(probe_id).text); });
}

// `read(raw, node)` returns the node's Result<T> (or a reference to it).
template <typename Read>
auto ReadEveryNode(const ClusterRaw& raw, Read read) {
  using Fact = std::decay_t<decltype(read(raw, std::string()).value())>;
  NodeFacts<Fact> facts;
  for (const auto& node : raw.nodes) facts.Add(node, read(raw, node));
  return facts;
}

// Why a reader of `out` gave no fact, as a reason code: the probe's status where the output
// was not obtained (absent, tool-missing, timeout, ...), "unparseable" where it did not parse.
inline ReasonCode UnreadCode(const RawOutput& out) {
  return out.ok() ? ReasonCode("unparseable") : ProbeStatusReason(out.status);
}

}  // namespace gpuconform::facts
