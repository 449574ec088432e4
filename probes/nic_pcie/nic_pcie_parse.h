// nic-pcie.txt: the PCIe link of every RDMA NIC, as gpuconform's NIC probe read it from sysfs
// (nic_pcie_probe.h), in record lines (harness/util/record_lines.h). Format v1:
//   nic-pcie sysfs_root=/sys device_count=9
//   nic name=mlx5_0 bus_id=0000:19:00.0 current_link_speed="32.0 GT/s PCIe" current_link_width=16
//       max_link_speed="32.0 GT/s PCIe" max_link_width=16                  (one line in the file)
// The values are the sysfs files /sys/class/infiniband/<dev>/device/{current,max}_link_{speed,
// width} verbatim; one that could not be read is left out. Parse is pure: text in, links with
// the PCIe generation read from the speed (2.5 GT/s = Gen1 ... 64 GT/s = Gen6), or an error
// naming origin:line. A speed the kernel calls "Unknown" leaves the generation unset.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::nic_pcie {

struct NicPcieLink {
  std::string name;           // "mlx5_0"
  std::string bus_id;         // "0000:19:00.0"; empty when sysfs did not say
  std::string current_speed;  // as sysfs printed it, for messages
  std::string max_speed;
  std::optional<int> current_gen;
  std::optional<int> max_gen;
  std::optional<int> current_width;
  std::optional<int> max_width;

  std::string DisplayName() const { return name + (bus_id.empty() ? "" : " (" + bus_id + ")"); }
};

struct NicPcieReport {
  std::string sysfs_root;
  std::vector<NicPcieLink> nics;
};

Result<NicPcieReport> ParseNicPcie(const std::string& text, const std::string& origin);

// "32.0 GT/s PCIe" -> 5, "8 GT/s" -> 3; nullopt for "Unknown" or anything else.
std::optional<int> PcieGenerationOfSpeed(const std::string& speed);

}  // namespace gpuconform::nic_pcie
