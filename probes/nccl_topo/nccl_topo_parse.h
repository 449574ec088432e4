// Parser for NCCL topology XML: the file NCCL writes to NCCL_TOPO_DUMP_FILE, or a static
// NCCL_TOPO_FILE a user supplies. Pure: XML text in, typed facts out, or an error naming the
// origin and line. Every attribute is optional (static files often carry only bus ids), so
// a missing attribute is an empty optional, never an error; a file of the wrong kind (an
// NCCL graph file, root <graphs>) or broken XML is an error that names the file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::nccl_topo {

struct Cpu {  // <cpu>
  std::optional<int> numa_id;
  std::string affinity, arch, vendor, family_id, model_id;
};

struct PciDevice {  // <pci>
  std::string busid;
  std::string class_code;  // lower case as written, e.g. "0x030200"; empty when absent
  std::string vendor, device;
  std::string link_speed_text;                  // as written, e.g. "32.0 GT/s PCIe"
  std::optional<double> link_speed_gt_per_s;    // parsed from link_speed_text
  std::optional<int> link_width_lanes;
  int cpu = -1;       // index into Topology::cpus; -1 when not under a <cpu>
  int parent = -1;    // index of the enclosing <pci>; -1 when directly under the CPU
  bool has_pci_children = false;  // NCCL treats a <pci> with <pci> children as a switch
  int line = 0;
};

struct NvLink {  // <nvlink>
  std::string target_busid;
  std::optional<int> count;
  std::string target_class;  // tclass, lower case
};

struct Gpu {  // a GPU: a <pci> of display class and/or a <gpu> element
  int pci = -1;             // index into Topology::pcis; -1 for a <gpu> outside any <pci>
  int cpu = -1;
  bool declared = false;    // a <gpu> element exists (else only the PCI class says GPU)
  std::optional<int> dev, sm, rank;
  std::optional<bool> gdr;
  std::vector<NvLink> nvlinks;
};

struct Net {  // <net> inside <nic>
  std::string name;
  std::optional<int> dev, port, maxconn;
  std::optional<long long> speed_mbit_per_s;  // NCCL writes the speed in Mb/s
  std::optional<double> latency;
  std::string guid;
  std::optional<bool> gdr, coll;
  int pci = -1;  // the enclosing <pci>; -1 for a <nic> directly under the CPU
  int cpu = -1;
};

struct Topology {
  std::string version;  // <system version>
  std::vector<Cpu> cpus;
  std::vector<PciDevice> pcis;
  std::vector<Gpu> gpus;
  std::vector<Net> nets;
  bool any_pci_class = false;  // false for a bare skeleton (bus ids only): classes unknown
  std::string origin;          // where it was read, as the parse was given it, for messages
};

// Largest file accepted; NCCL's own dumps are tens of KiB, so anything near this is not one.
inline constexpr std::size_t kMaxTopologyBytes = 16u << 20;

Result<Topology> ParseTopologyXml(const std::string& xml, const std::string& origin);

// "32.0 GT/s PCIe", "32 GT/s PCIe/s", "16 GT/s" -> GT/s; empty or unknown -> nullopt.
std::optional<double> ParseLinkSpeedGtPerS(std::string_view text);

// PCI class predicates on a class code such as "0x030200" (base class, subclass, prog-if).
bool IsGpuClass(std::string_view class_code);       // 0x03xxxx display / 3D controller
bool IsNicClass(std::string_view class_code);       // 0x02xxxx network (0x0200 Ethernet, 0x0207 InfiniBand)
bool IsInfinibandClass(std::string_view class_code);  // 0x0207xx
bool IsEthernetClass(std::string_view class_code);  // 0x0200xx
bool IsNvSwitchClass(std::string_view class_code);  // 0x0680xx, how NCCL marks NVSwitch targets

}  // namespace gpuconform::nccl_topo
