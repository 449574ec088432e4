// Helpers for the facts layer's typed readers (probes/<tool>/<tool>_facts.h, facts/*.h) and for
// a suite's glue over them: an output through its parser, or the probe's detail where there
// is none; a cluster output's lines parsed once per run; one reader over every node of the
// run, as the NodeFacts a cluster-wide check judges; and the reason code of a fact that could
// not be read. Each fact comes from the run's fact cache, so a check that reads it again does
// not parse it again.
#pragma once

#include <string>
#include <type_traits>

#include "harness/cluster_raw.h"
#include "harness/node_facts.h"
#include "harness/probe.h"
#include "harness/reason_code.h"
#include "harness/result.h"

namespace gpuconform::facts {

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
