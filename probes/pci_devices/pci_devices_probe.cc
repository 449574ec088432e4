#include "probes/pci_devices/pci_devices_probe.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace gpuconform::pci_devices {

namespace {

// One line of a sysfs attribute file such as "0x030200\n"; empty when unreadable.
std::string SysfsWord(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

}  // namespace

RawOutput PciDevicesOutput(const LiveContext& context) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(context.options.sysfs_root) / "bus/pci/devices";
  RawOutput out;
  out.origin = context.host + ": " + dir.string() + "/*/class";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": " + dir.string() +
                 " does not exist, so the node's PCI devices cannot be listed (not Linux, or /sys is not mounted "
                 "in the container; GPUCONFORM_SYSFS_ROOT names a stand-in for /sys)";
    return out;
  }
  std::vector<std::string> lines;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string class_code = SysfsWord(entry.path() / "class");
    std::string line = entry.path().filename().string() + " " + (class_code.empty() ? "unknown" : class_code);
    const std::string vendor = SysfsWord(entry.path() / "vendor");
    const std::string device = SysfsWord(entry.path() / "device");
    if (!vendor.empty() && !device.empty()) line += " " + vendor + " " + device;
    lines.push_back(std::move(line));
  }
  if (ec) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": cannot list " + dir.string() + ": " + ec.message();
    return out;
  }
  std::sort(lines.begin(), lines.end());
  out.status = ProbeStatus::kOk;
  for (const auto& line : lines) out.text += line + "\n";
  return out;
}

ProbeSpec PciDevices() { return BuiltinProbe("pci-devices", ProbeScope::kNode, "pci-devices.txt", PciDevicesOutput); }

}  // namespace gpuconform::pci_devices
