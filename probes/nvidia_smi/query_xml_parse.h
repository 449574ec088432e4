// The one parser of `nvidia-smi -q -x`: the driver and CUDA versions (Software), each GPU's
// model, PCI bus id, PCIe link (generation and width, current and maximum), performance
// state and, on Hopper and later, its NVLink fabric state (NvSwitch, Pcie), and so the GPU
// count (SlurmGres). Pure: XML text in, GpuInventory out, or an error
// naming origin:line. Fields a driver does not report ("N/A", absent) stay unset rather than
// guessed; no byte string makes it crash.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/result.h"

namespace gpuconform::nvidia_smi {

struct PcieLink {
  std::optional<int> max_gen;        // <pcie_gen><max_link_gen>: what GPU and host both support
  std::optional<int> current_gen;    // <pcie_gen><current_link_gen>
  std::optional<int> max_width;      // <link_widths><max_link_width> "16x" -> 16
  std::optional<int> current_width;  // <link_widths><current_link_width>
};

struct GpuRecord {
  int index = 0;               // position in the output, which is nvidia-smi's GPU index
  std::string bus_id;          // "00000000:18:00.0"
  std::string product_name;    // "NVIDIA H100 80GB HBM3"
  std::string performance_state;  // "P0".."P12", empty when not reported
  PcieLink pcie;
  std::string fabric_state;    // <fabric><state>: "Completed", "In Progress", ...; empty if absent
  std::string fabric_status;   // <fabric><status>: "Success" or an error
};

struct GpuInventory {
  std::string driver_version;  // <driver_version>; empty when not reported
  std::string cuda_version;    // <cuda_version> (the driver API's CUDA); empty when not reported
  std::vector<GpuRecord> gpus;
};

Result<GpuInventory> ParseNvidiaSmiGpus(const std::string& xml, const std::string& origin);

// "GPU 3 (00000000:9A:00.0)": how messages name a GPU.
std::string GpuDisplayName(const GpuRecord& gpu);

}  // namespace gpuconform::nvidia_smi
