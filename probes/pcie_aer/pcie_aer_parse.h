// PCIe Advanced Error Reporting (AER) counters per device, from the three places operators
// read them:
//   - gpuconform's own sysfs probe (aer.txt, record lines):
//       aer sysfs_root=/sys pci_device_count=N device_count=M
//       device address=0000:18:00.0 class=0x030200 vendor=0x10de parent=0000:17:01.0
//       counter address=0000:18:00.0 file=aer_dev_correctable name=RxErr value=0
//     names as the kernel's /sys/bus/pci/devices/<addr>/aer_dev_{correctable,nonfatal,fatal}
//     spell them, TOTAL_ERR_COR / TOTAL_ERR_NONFATAL / TOTAL_ERR_FATAL included;
//   - those files dumped raw: "RxErr 0" lines, each file ending in its TOTAL_ERR_* line, or
//     `grep . <dir>/aer_dev_*` ("/sys/.../0000:19:00.0/aer_dev_correctable:RxErr 0");
//   - `lspci -vvv` device blocks, whose AER capability has the status registers "CESta:" and
//     "UESta:" (a flag with '+' is a latched error) and "UESvrt:" (a '+' makes that error fatal).
//     lspci gives flags, not counts: a set flag is recorded as 1, "at least once since the
//     register was cleared" (AerReport::flags_only).
// Pure; errors name origin:line; garbage is an error, never a crash. The kernel log's AER
// lines are the kernel-log parser's (probes/kernel_log/kernel_log_parse.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::pcie_aer {

// What a device is, from its PCI class code, so a message says what to reseat.
enum class DeviceKind { kGpu, kNic, kBridge, kOther };

// 0x03xxxx display (0x0300 VGA, 0x0302 3D: the data-centre GPUs) -> GPU, 0x02xxxx network
// (0x0200 Ethernet, 0x0207 InfiniBand) -> NIC, 0x0604xx PCI-to-PCI bridge (root and switch
// ports) -> bridge; anything else, or no class, -> other.
DeviceKind KindOfClass(std::string_view class_code);
const char* KindName(DeviceKind kind);  // "GPU", "NIC", "bridge", "device"

enum class Severity { kCorrectable, kNonFatal, kFatal };

// One aer_dev_* file (or one lspci status register) of a device.
struct SeverityCounts {
  bool read = false;         // the file or register was there
  std::uint64_t total = 0;   // its TOTAL_ERR_* line, else the sum of its errors
  std::map<std::string, std::uint64_t> errors;  // the kernel's (or lspci's) error name -> count
};

struct AerDevice {
  std::string address;     // canonical "0000:19:00.0"; a raw dump without one: its sysfs directory
  std::string class_code;  // "0x030200"; empty when unknown
  std::string vendor;      // "0x10de"; empty when unknown
  std::string parent;      // the bridge above it ("0000:17:01.0"); empty when unknown
  DeviceKind kind = DeviceKind::kOther;
  SeverityCounts correctable;
  SeverityCounts nonfatal;
  SeverityCounts fatal;
  int line = 0;  // where the device starts in its origin

  const SeverityCounts& Counts(Severity severity) const;
};

struct AerReport {
  std::string origin;
  std::string format;       // "sysfs" (gpuconform's probe), "sysfs-dump", "lspci"
  bool flags_only = false;  // lspci: every value is a latched flag, 1 = at least once
  std::vector<AerDevice> devices;  // every device with AER, in their origin's order
};

// Any of the three formats, told apart by their first meaningful line.
Result<AerReport> ParseAer(const std::string& text, const std::string& origin);

}  // namespace gpuconform::pcie_aer
