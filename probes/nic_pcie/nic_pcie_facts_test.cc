// The NIC PCIe reader: parsed once per run, or why there is none, naming the node and file.
#include "probes/nic_pcie/nic_pcie_facts.h"

#include <gtest/gtest.h>

#include "probes/nic_pcie/nic_pcie_probe.h"

namespace gpuconform::nic_pcie {
namespace {

TEST(NicPcieFacts, ParsesOnceAndNamesAMissingFile) {
  ClusterRaw raw;
  raw.nodes = {"n1", "n2"};
  raw.node["n1"][NicPcieProbe().id] = {
      ProbeStatus::kOk,
      "nic-pcie sysfs_root=/sys device_count=1\n"
      "nic name=mlx5_0 bus_id=0000:19:00.0 current_link_speed=\"32.0 GT/s PCIe\" current_link_width=8 "
      "max_link_speed=\"32.0 GT/s PCIe\" max_link_width=16\n",
      "", ""};
  const auto first = ReadNicPcie(raw, "n1");
  ASSERT_TRUE(first) << first.error();
  ASSERT_EQ(first->nics.size(), 1u);
  EXPECT_EQ(first->nics[0].current_width, 8);
  raw.node["n1"][NicPcieProbe().id].text = "garbage\n";
  const auto again = ReadNicPcie(raw, "n1");
  ASSERT_TRUE(again) << "parsed a second time: " << again.error();
  EXPECT_EQ(again->nics.size(), 1u);
  raw.node["n2"][NicPcieProbe().id] = {ProbeStatus::kAbsent, "", "", ""};
  const auto missing = ReadNicPcie(raw, "n2");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "n2: the snapshot has no nic-pcie.txt");
}

}  // namespace
}  // namespace gpuconform::nic_pcie
