// The per-GPU heading of nvidia-smi's nvlink outputs (-s, -e):
//   "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-2bc323e3-...)"
// Pure: one trimmed line in; nothing when the line is not such a heading. And the lines of
// those outputs as both their parsers read them (NvlinkOutputLines).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "harness/util/line_source.h"

namespace gpuconform::nvidia_smi {

struct GpuHeading {
  int index = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  std::string uuid;  // "GPU-..." where printed, else empty
};

std::optional<GpuHeading> ParseGpuHeading(std::string_view trimmed);

// The non-blank lines of an nvlink output, each without ANSI colour escapes or a carriage
// return, trimmed. last_line() is the number of the last line read, blank or not (1 before
// any): where output that never names a GPU is faulted.
class NvlinkOutputLines {
 public:
  struct Line {
    int number = 0;
    std::string trimmed;
  };

  explicit NvlinkOutputLines(std::string_view text) : lines_(text) {}
  std::optional<Line> Next();
  int last_line() const { return last_line_; }

 private:
  TextLines lines_;
  int last_line_ = 1;
};

}  // namespace gpuconform::nvidia_smi
