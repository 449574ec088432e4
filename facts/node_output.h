// One node's output of one probe, for the typed readers of the facts layer (facts/, probes/*/
// *_facts): the origin a parser's messages name, and the output parsed, or why there is none
// (harness/raw_text.h). Pure.
#pragma once

#include <string>

#include "harness/cluster_raw.h"
#include "harness/probe.h"
#include "harness/raw_text.h"
#include "harness/result.h"

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

}  // namespace gpuconform::facts
