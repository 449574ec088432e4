// A node's live PCI devices, as the pci-devices probe lists them from sysfs, one a line:
//   "0000:18:00.0 0x030200 0x10de 0x2330"   (bus id, class, then vendor and device when known)
// and the PCI bus id normalisation that lets a topology file's ids be looked up in that list.
// Pure: text in, devices keyed by canonical bus id out, or an error naming origin and line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "harness/util/result.h"

namespace gpuconform::pci_devices {

struct LivePciDevice {
  std::string busid;       // canonical, e.g. "0000:18:00.0"
  std::string class_code;  // "0x030200" as sysfs writes it; empty when unknown
  std::string vendor;      // "0x10de"; empty when unknown
  std::string device;      // "0x2330"; empty when unknown
  int line = 0;
};

using LivePciDevices = std::map<std::string, LivePciDevice>;  // canonical bus id -> device

// Bus ids name the same device in several spellings: sysfs "0000:18:00.0", CUDA and NVML
// "00000000:18:00.0" (eight-digit domain, upper case), lspci "18:00.0" (domain 0 left out),
// VMD domains above 0xffff ("10000:00:00.0"). All become lower-case "dddd:bb:dd.f" with at
// least four domain digits. Not a bus id -> nullopt.
std::optional<std::string> CanonicalBusId(std::string_view text);

// NCCL names the virtual PCI switches of a VM's static topology "ffff:ff:01.0" (domain
// 0xffff); they exist only in the file, never in sysfs.
bool IsVirtualBusId(std::string_view canonical_busid);

Result<LivePciDevices> ParsePciDevices(std::string_view text, const std::string& origin);

}  // namespace gpuconform::pci_devices
