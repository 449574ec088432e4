// The per-GPU heading of nvidia-smi's nvlink outputs (-s, -e):
//   "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-2bc323e3-...)"
// Pure: one trimmed line in; nothing when the line is not such a heading.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuconform::nvidia_smi {

struct GpuHeading {
  int index = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  std::string uuid;  // "GPU-..." where printed, else empty
};

std::optional<GpuHeading> ParseGpuHeading(std::string_view trimmed);

}  // namespace gpuconform::nvidia_smi
