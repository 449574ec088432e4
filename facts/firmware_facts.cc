#include "facts/firmware_facts.h"

#include <set>

#include "facts/gpu_facts.h"
#include "facts/ib_port_facts.h"
#include "harness/core/fact_reading.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"

namespace gpuconform::facts {

namespace {

// Why a listing gave no devices: the first probe's status says whether the tool is absent.
FirmwareReading Unread(const RawOutput& first_probe, const std::string& problem) {
  FirmwareReading reading;
  reading.not_installed = first_probe.status == ProbeStatus::kToolMissing;
  reading.reason = UnreadCode(first_probe);
  reading.problem = problem;
  return reading;
}

using GpuField = std::string nvidia_smi::GpuRecord::*;

FirmwareReading ReadGpuField(const ClusterRaw& raw, const std::string& node, GpuField field) {
  const Result<nvidia_smi::GpuInventory>& inventory = ReadGpuHealth(raw, node);
  if (!inventory) return Unread(raw.NodeOutput(node, nvidia_smi::NvidiaSmiQueryXml().id), inventory.error());
  FirmwareReading reading;
  reading.read = true;
  for (const auto& gpu : inventory->gpus) {
    reading.devices.push_back({nvidia_smi::GpuDisplayName(gpu), gpu.product_name, gpu.*field});
  }
  return reading;
}

}  // namespace

FirmwareReading ReadVbiosVersions(const ClusterRaw& raw, const std::string& node) {
  return ReadGpuField(raw, node, &nvidia_smi::GpuRecord::vbios_version);
}

FirmwareReading ReadInforomVersions(const ClusterRaw& raw, const std::string& node) {
  return ReadGpuField(raw, node, &nvidia_smi::GpuRecord::inforom_image_version);
}

FirmwareReading ReadHcaFirmware(const ClusterRaw& raw, const std::string& node) {
  const Result<IbPortReport>& report = ReadPorts(raw, node);
  if (!report) return Unread(raw.NodeOutput(node, PortProbes().front().id), report.error());
  FirmwareReading reading;
  reading.read = true;
  std::set<std::string> seen;
  for (const auto& port : report->ports) {
    if (!seen.insert(port.ca).second) continue;
    reading.devices.push_back({port.ca, port.ca_type, port.firmware_version});
  }
  return reading;
}

}  // namespace gpuconform::facts
