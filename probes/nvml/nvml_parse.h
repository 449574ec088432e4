// nvml.txt: what gpuconform's NVML probe (libnvidia-ml.so.1, loaded with dlopen) read on a
// node, in record lines (harness/util/record_lines.h). Format v1, one record per line:
//   nvml driver_version=550.54.15 nvml_version=12.550.54.15 device_count=8
//   gpu index=0 name="NVIDIA H100 80GB HBM3" bus_id=00000000:18:00.0 pcie_gen_current=5
//       pcie_gen_max=5 pcie_width_current=16 pcie_width_max=16 fabric_state=completed
//       fabric_status=success                                          (one line in the file)
//   link gpu=0 link=0 state=active remote=nvswitch remote_bus_id=00000000:05:00.0 version=4
//       speed_mbyte_per_s=26562 replay_errors=0 recovery_errors=0 crc_errors=0
//                                                                      (one line in the file)
//   gpu index=3 error="GPU is lost"              (the device handle could not be obtained)
// state: active|inactive. remote: nvswitch|gpu|ibmnpu|unknown. fabric_state: not-supported|
// not-started|in-progress|completed; fabric_status: success or NVML's error string. A field
// the driver does not report (an older NVML without the call, NOT_SUPPORTED) is left out. The
// error counters are NVML's DL counters of an active link (NVML_FI_DEV_NVLINK_ERROR_DL_*), the
// ones nvidia-smi nvlink -e prints.
// Parse is pure: text in, NvmlReport out, or an error naming origin:line.
//
// One fact model, either source: ToGpuInventory and ToNvlinkStatus turn the report into the
// same facts the nvidia-smi parsers produce (nvidia-smi's words for the fabric state), so the
// checks do not know which tool spoke. facts/gpu_facts.h chooses: NVML where nvml.txt was obtained,
// else nvidia-smi.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"
#include "probes/nvidia_smi/nvlink_errors_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

namespace gpuconform::nvml {

using namespace gpuconform::nvidia_smi;

struct NvmlLink {
  int link = 0;
  bool active = false;
  std::string remote;         // "nvswitch", "gpu", "ibmnpu", "unknown"; empty when not reported
  std::string remote_bus_id;  // the PCI bus id of the far end, where reported
  std::optional<int> version;
  std::optional<double> speed_gb_per_s;  // speed_mbyte_per_s / 1000
  std::map<std::string, std::uint64_t> error_counters;  // nvidia_smi::kNvlink* -> value, where reported
};

struct NvmlGpu {
  int index = 0;
  std::string name;
  std::string bus_id;
  nvidia_smi::PcieLink pcie;
  std::string fabric_state;   // as written: "completed", ...; empty when not reported
  std::string fabric_status;  // "success" or an error string; empty when not reported
  std::string error;          // why NVML could not read this GPU; empty when it could
  std::vector<NvmlLink> links;
};

struct NvmlReport {
  std::string driver_version;
  std::optional<int> device_count;
  std::vector<NvmlGpu> gpus;
};

Result<NvmlReport> ParseNvml(const std::string& text, const std::string& origin);

// The GPUs as nvidia-smi -q -x would list them (fabric state in nvidia-smi's words:
// "Completed", "In Progress", "Not Started", "Not Supported"; status "Success").
nvidia_smi::GpuInventory ToGpuInventory(const NvmlReport& report);
// The links as nvidia-smi nvlink -s would show them, with each link's remote device type.
NvlinkStatus ToNvlinkStatus(const NvmlReport& report);
// The links' error counters as nvidia-smi nvlink -e would show them, or nullopt where NVML
// reported no counter on any link (an NVML before the DL fields, or no active link).
std::optional<nvidia_smi::NvlinkErrorReport> ToNvlinkErrors(const NvmlReport& report, const std::string& origin);

}  // namespace gpuconform::nvml
