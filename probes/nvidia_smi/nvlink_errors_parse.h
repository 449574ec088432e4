// `nvidia-smi nvlink -e` (--errorcounters): per GPU, per NVLink, the error counters the driver
// keeps since it loaded, in NVIDIA's documented layout:
//   GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)
//   	 Link 0: Replay Errors: 0
//   	 Link 0: Recovery Errors: 0
//   	 Link 0: CRC Errors: 0
// Replays and CRC errors are corrected by retransmission; a recovery is the link retraining.
// A counter the GPU does not keep prints "N/A" and is left out. Pure; errors name origin:line;
// garbage (or another nvidia-smi output, such as nvlink -s) is an error, never a crash.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::nvidia_smi {

// The counters, by the names the checks and reports use.
inline constexpr char kNvlinkReplay[] = "replay_errors";
inline constexpr char kNvlinkRecovery[] = "recovery_errors";
inline constexpr char kNvlinkCrc[] = "crc_errors";

struct NvlinkLinkErrors {
  int link = 0;
  std::map<std::string, std::uint64_t> counters;  // kNvlink* -> value
};

struct NvlinkGpuErrors {
  int index = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  std::string uuid;  // "GPU-..." where printed
  std::vector<NvlinkLinkErrors> links;
};

struct NvlinkErrorReport {
  std::string origin;
  std::vector<NvlinkGpuErrors> gpus;
};

Result<NvlinkErrorReport> ParseNvlinkErrors(const std::string& text, const std::string& origin);

}  // namespace gpuconform::nvidia_smi
