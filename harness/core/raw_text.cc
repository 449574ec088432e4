#include "harness/core/raw_text.h"

#include "harness/util/read_file.h"
#include "harness/util/text_util.h"

namespace gpuconform {

Result<std::string> UsableText(const RawOutput& out, const std::string& node, const std::string& file,
                               const std::string& missing_tool) {
  switch (out.status) {
    case ProbeStatus::kOk:
      // A large output (RawOutput::file) is streamed by its own reader; any other reader gets
      // the file whole, as it would have had the text.
      if (!out.file.empty()) return ReadTextFile(out.file, node + " " + file);
      return out.text;
    case ProbeStatus::kAbsent:
      // The source's own detail names the path it looked for; it is the more precise of the two.
      return Error{node + ": " + (out.detail.empty() ? "the snapshot has no " + file : out.detail)};
    case ProbeStatus::kToolMissing: {
      std::string detail = out.detail;
      if (StartsWith(detail, node + ": ")) detail = detail.substr(node.size() + 2);
      return Error{node + ": " + missing_tool + (detail.empty() ? "" : ": " + detail)};
    }
    case ProbeStatus::kTimedOut:
      return Error{out.detail.empty() ? node + ": " + file + ": the command timed out" : out.detail};
    case ProbeStatus::kFailed:
      break;
  }
  // A failing tool often explains itself on stdout (nvidia-smi: "NVIDIA-SMI has failed because
  // it couldn't communicate with the NVIDIA driver"), so its first line goes into the message.
  std::string said;
  for (const auto line : SplitLines(out.text)) {
    if (!Trim(line).empty()) {
      said = std::string(Trim(line)).substr(0, 200);
      break;
    }
  }
  std::string message = out.detail.empty() ? node + ": " + file + " could not be obtained" : out.detail;
  if (!said.empty() && !Contains(message, said)) message += ": " + said;
  return Error{message};
}

}  // namespace gpuconform
