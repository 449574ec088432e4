// The parser of `nvidia-smi -q` (the text form, snapshot file nvidia-smi-q.txt), for nodes
// and archives where only it exists. It fills the structures of query_xml_parse.h with the
// same fields: versions, each GPU's model, bus id, PCIe link, fabric state, and the health
// fields GpuHealth judges. Both label generations are read ("Clocks Throttle Reasons" and
// "Ecc Mode" before driver 535 and 530, "Clocks Event Reasons" and "ECC Mode" after).
// An output in which nvidia-smi says it failed ("couldn't communicate with the NVIDIA
// driver", "No devices were found") is an error quoting that line, never an empty inventory;
// a GPU it names but cannot open ("Unable to determine the device handle for GPU...") is
// listed in inaccessible_bus_ids. Pure; no byte string makes it crash.
#pragma once

#include <string>

#include "harness/util/result.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::nvidia_smi {

Result<GpuInventory> ParseNvidiaSmiQueryText(const std::string& text, const std::string& origin);

// The line of an nvidia-smi output (either form) that says nvidia-smi itself failed, and its
// line number, or nullopt. Shared by both forms so that they fail alike.
struct SmiFailure {
  int line = 0;
  std::string text;
};
std::optional<SmiFailure> FindSmiFailure(const std::string& output);

// The GPUs an nvidia-smi output (either form) names as impossible to open, canonical bus ids.
std::vector<std::string> FindInaccessibleGpus(const std::string& output);

}  // namespace gpuconform::nvidia_smi
