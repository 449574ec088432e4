// Each node's firmware versions, per device, for the Software suite's firmware checks: the
// GPUs' VBIOS and InfoROM image (nvidia-smi -q -x, else its text form, through
// ReadGpuHealth) and the HCAs' firmware (ibstat, else gpuconform's libibverbs probe, else
// ibv_devinfo -v, through ReadPorts). A device's model travels with its version because
// firmware is per model: a ConnectX-7 (MT4129) and a ConnectX-6 Dx (MT4125) in one node run
// different firmware lines by design. Pure: raw outputs in.
#pragma once

#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/reason_code.h"

namespace gpuconform::facts {

struct DeviceFirmware {
  std::string device;   // how messages name it: "GPU 3 (00000000:9A:00.0)", "mlx5_2"
  std::string model;    // "NVIDIA H100 80GB HBM3", "MT4129"; empty when the tool does not say
  std::string version;  // empty: the device reports none ("N/A", or a trimmed output)

  bool operator==(const DeviceFirmware&) const = default;
};

struct FirmwareReading {
  bool read = false;           // the node's listing was read (devices may still be empty)
  std::vector<DeviceFirmware> devices;
  bool not_installed = false;  // the tool is absent on the node (a fact, not an error)
  std::string problem;         // why the listing could not be read, naming node and tool
  ReasonCode reason{"unparseable"};

  bool operator==(const FirmwareReading&) const = default;
};

FirmwareReading ReadVbiosVersions(const ClusterRaw& raw, const std::string& node);
FirmwareReading ReadInforomVersions(const ClusterRaw& raw, const std::string& node);
// One entry per HCA (not per port: the firmware is the adapter's).
FirmwareReading ReadHcaFirmware(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::facts
