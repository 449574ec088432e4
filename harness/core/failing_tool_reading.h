// Reading the output of a tool that exits non-zero exactly when it has something to say: dcgmi
// diag when a test fails, ib_write_bw when it cannot find its device or peer, nvbandwidth on a
// CUDA error. Its text is parsed whatever the exit status, so the check sees the tool's own
// words; only an output that was not obtained at all (absent, tool missing, timed out) is an
// error, as facts::ParseNodeOutput says it.
#pragma once

#include <initializer_list>
#include <string>

#include "harness/core/fact_reading.h"
#include "harness/util/text_util.h"

namespace gpuconform::facts {

template <typename T>
Result<T> ParseNodeOutputWhateverItsExit(const ClusterRaw& raw, const std::string& node, const ProbeSpec& spec,
                                         const std::string& missing_tool,
                                         Result<T> (*parse)(const std::string& text, const std::string& origin)) {
  const RawOutput out = raw.NodeOutput(node, spec.id);
  if (out.status == ProbeStatus::kFailed && !Trim(out.text).empty()) return parse(out.text, OriginOf(out, node, spec));
  return ParseNodeOutput(raw, node, spec, missing_tool, parse);
}

// The first of `specs` the node has an output for, read as above: a snapshot holds one form of
// a tool's output (its JSON, carrying more, or its text), and the last spec's absence is the error.
template <typename T>
Result<T> ParseFirstPresentWhateverItsExit(const ClusterRaw& raw, const std::string& node,
                                           std::initializer_list<const ProbeSpec*> specs,
                                           const std::string& missing_tool,
                                           Result<T> (*parse)(const std::string& text, const std::string& origin)) {
  const ProbeSpec* chosen = nullptr;
  for (const ProbeSpec* spec : specs) {
    chosen = spec;
    if (raw.NodeOutput(node, spec->id).status != ProbeStatus::kAbsent) break;
  }
  if (!chosen) return Error{node + ": no output to read"};
  return ParseNodeOutputWhateverItsExit(raw, node, *chosen, missing_tool, parse);
}

}  // namespace gpuconform::facts
