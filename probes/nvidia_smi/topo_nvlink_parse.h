// Parsers for the two nvidia-smi outputs the NvSwitch suite reads: the topology matrix
// (`nvidia-smi topo -m`) and the NVLink status (`nvidia-smi nvlink -s`). Pure: text in, facts
// out, or an error naming origin:line. They accept what real nodes and pastes of them hold
// (ANSI escapes, shell prompts, legends, elided "..." rows, clipped trailing columns) and
// reject anything they cannot read without guessing; no byte string makes them crash.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/probe.h"
#include "harness/util/result.h"

namespace gpuconform::nvidia_smi {

// `nvidia-smi topo -m`: how every pair of devices (GPUs, NICs) is connected.
struct TopoMatrix {
  std::vector<std::string> columns;                    // device labels of the header: GPU0.., NIC0..
  std::vector<std::string> gpus;                       // GPU rows, in order: "GPU0", "GPU1", ...
  std::vector<std::string> nics;                       // NIC rows (or NIC columns), in order
  std::map<std::string, std::vector<std::string>> rows;  // row label -> cells, one per column
  std::map<std::string, std::string> nic_names;        // "NIC0" -> "mlx5_0" (the NIC Legend)

  // The connection between two devices as printed ("NV18", "PIX", "SYS", "X"), read from a's
  // row or else from b's row; empty when the matrix does not say.
  std::string Between(const std::string& a, const std::string& b) const;
  // "NIC0 (mlx5_0)", or the label alone when the legend does not name it.
  std::string NicDisplayName(const std::string& nic) const;
};

Result<TopoMatrix> ParseTopoMatrix(const std::string& text, const std::string& origin);

// k of "NV<k>", or nullopt when the cell is not an NVLink connection.
std::optional<int> NvlinkCount(const std::string& cell);

// `nvidia-smi nvlink -s`: per GPU, per link, active at a speed or inactive.
struct NvlinkLink {
  int index = 0;
  bool active = false;
  double speed_gb_per_s = 0;  // when active
  bool speed_reported = true;  // false where the source (an older NVML) gives no speed
  // The far end, where the source says (NVML; nvidia-smi nvlink -s does not): "nvswitch",
  // "gpu", "ibmnpu", "unknown"; empty when not reported.
  std::string remote;
  std::string remote_bus_id;
};

struct NvlinkGpu {
  int index = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  std::vector<NvlinkLink> links;
  std::string all_inactive_message;  // NVML's "Unable to retrieve NVLink information ..." line
};

struct NvlinkStatus {
  std::vector<NvlinkGpu> gpus;
  int elided_at_line = 0;  // a "..." line stands for GPUs that were left out; 0 when none
};

Result<NvlinkStatus> ParseNvlinkStatus(const std::string& text, const std::string& origin);

}  // namespace gpuconform::nvidia_smi
