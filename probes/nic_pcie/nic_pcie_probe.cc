#include "probes/nic_pcie/nic_pcie_probe.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::nic_pcie {

namespace {

namespace fs = std::filesystem;

// The first line of a sysfs attribute, or nullopt when it cannot be read.
std::optional<std::string> ReadAttribute(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  if (in.bad()) return std::nullopt;
  return std::string(Trim(line));
}

}  // namespace

RawOutput NicPcieOutput(const LiveContext& context) {
  const std::string& root = context.options.sysfs_root;
  const fs::path class_dir = fs::path(root) / "class" / "infiniband";
  RawOutput out;
  out.origin = context.host + ": " + class_dir.string() + "/*/device/{current,max}_link_{speed,width}";
  std::vector<fs::path> devices;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(class_dir, ec)) devices.push_back(entry.path());
  std::sort(devices.begin(), devices.end());
  out.text = "# nic-pcie.txt v1: gpuconform's RDMA NIC PCIe probe (sysfs); format in probes/nic_pcie/nic_pcie_parse.h\n";
  if (devices.empty()) out.text += "# no RDMA device under " + class_dir.string() + "\n";
  out.text += FormatRecord("nic-pcie", {{"sysfs_root", root}, {"device_count", std::to_string(devices.size())}}) + "\n";
  for (const auto& device : devices) {
    std::vector<std::pair<std::string, std::string>> fields = {{"name", device.filename().string()}};
    const fs::path function = device / "device";
    // The device link ends in the PCI function: .../0000:19:00.0.
    const fs::path resolved = fs::canonical(function, ec);
    if (!ec) fields.emplace_back("bus_id", resolved.filename().string());
    for (const char* attribute : {"current_link_speed", "current_link_width", "max_link_speed", "max_link_width"}) {
      if (auto value = ReadAttribute(function / attribute)) fields.emplace_back(attribute, *value);
    }
    out.text += FormatRecord("nic", fields) + "\n";
  }
  out.status = ProbeStatus::kOk;
  return out;
}

const ProbeSpec& NicPcieProbe() {
  static const ProbeSpec kSpec = BuiltinProbe("nic-pcie", ProbeScope::kNode, "nic-pcie.txt", NicPcieOutput);
  return kSpec;
}

}  // namespace gpuconform::nic_pcie
