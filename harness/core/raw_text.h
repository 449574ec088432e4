// Raw output -> text or error: the one place that turns a probe's RawOutput into the text a
// parser reads, or an error that names the node, the snapshot file and the cause (absent
// from the snapshot, tool missing, timed out, or failed, quoting the tool's first line).
#pragma once

#include <string>

#include "harness/core/probe.h"
#include "harness/util/result.h"

namespace gpuconform {

// What a check can use of one probe output: its text, or why there is none, naming the node
// and the snapshot file. `missing_tool` says what an absent command means on a node, e.g. "no
// NVIDIA driver was found on the node (nvidia-smi not installed)".
Result<std::string> UsableText(const RawOutput& out, const std::string& node, const std::string& file,
                               const std::string& missing_tool);

}  // namespace gpuconform
