#include "probes/pcie_aer/pcie_aer_probe.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/pci_devices/pci_devices.h"

namespace gpuconform::pcie_aer {

namespace {

namespace fs = std::filesystem;

constexpr const char* kAerFiles[] = {"aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal"};

// The first word of a sysfs attribute ("0x030200"); empty when unreadable.
std::string AttributeWord(const fs::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

// The bridge above a device: sysfs links bus/pci/devices/<addr> to its place in the device
// tree (devices/pci0000:17/0000:17:01.0/0000:18:00.0), whose parent directory is that bridge;
// empty for a device on a root bus.
std::string ParentBridge(const fs::path& device) {
  std::error_code ec;
  const fs::path real = fs::canonical(device, ec);
  if (ec) return "";
  const auto parent = pci_devices::CanonicalBusId(real.parent_path().filename().string());
  return parent ? *parent : "";
}

}  // namespace

RawOutput AerOutput(const LiveContext& context) {
  const fs::path dir = fs::path(context.options.sysfs_root) / "bus" / "pci" / "devices";
  RawOutput out;
  out.origin = context.host + ": " + dir.string() + "/*/aer_dev_*";
  std::vector<fs::path> devices;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) devices.push_back(entry.path());
  std::sort(devices.begin(), devices.end());
  // Every device with AER files is kept, not only GPUs, NICs and bridges: the root or switch
  // port above a GPU is where its link's errors are often counted (the link partner reports
  // them), and an NVMe or a management device that fails takes the node down too. Its class
  // says what it is; the cost is a few dozen lines per device.
  std::string records;
  int with_aer = 0;
  for (const auto& device : devices) {
    std::error_code missing;
    if (!fs::exists(device / kAerFiles[0], missing) || !fs::exists(device / kAerFiles[1], missing) ||
        !fs::exists(device / kAerFiles[2], missing)) {
      continue;
    }
    ++with_aer;
    const std::string address = device.filename().string();
    records += FormatRecord("device", {{"address", address},
                                       {"class", AttributeWord(device / "class")},
                                       {"vendor", AttributeWord(device / "vendor")},
                                       {"parent", ParentBridge(device)}}) +
               "\n";
    for (const char* file : kAerFiles) {
      std::ifstream in(device / file);
      std::string line;
      while (std::getline(in, line)) {
        const auto words = SplitWords(line);
        if (words.size() != 2) continue;  // not a "NAME count" line: the parser judges only counts
        records += FormatRecord("counter", {{"address", address},
                                            {"file", file},
                                            {"name", std::string(words[0])},
                                            {"value", std::string(words[1])}}) +
                   "\n";
      }
    }
  }
  out.text = "# aer.txt v1: gpuconform's PCIe AER counter probe (sysfs); format in "
             "probes/pcie_aer/pcie_aer_parse.h\n";
  out.text += FormatRecord("aer", {{"sysfs_root", context.options.sysfs_root},
                                   {"pci_device_count", std::to_string(devices.size())},
                                   {"device_count", std::to_string(with_aer)}}) +
              "\n" + records;
  out.status = ProbeStatus::kOk;
  return out;
}

const ProbeSpec& AerProbe() {
  static const ProbeSpec kSpec = BuiltinProbe("aer", ProbeScope::kNode, "aer.txt", AerOutput);
  return kSpec;
}

}  // namespace gpuconform::pcie_aer
