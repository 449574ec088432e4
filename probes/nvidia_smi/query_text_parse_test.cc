// The text form of nvidia-smi -q and the health fields of both forms: what each field reads
// as, both label generations, and nvidia-smi's own failures as errors, never as no GPUs.
#include "probes/nvidia_smi/query_text_parse.h"

#include <gtest/gtest.h>

#include <limits>

#include "probes/nvidia_smi/query_xml_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::nvidia_smi {
namespace {

// One GPU as driver 565 prints it (abridged to the sections GpuHealth reads).
constexpr char kHopperText[] = R"(
==============NVSMI LOG==============

Timestamp                                 : Thu Nov 14 07:00:14 2024
Driver Version                            : 565.57.01
CUDA Version                              : 12.7

Attached GPUs                             : 1
GPU 00000000:18:00.0
    Product Name                          : NVIDIA H100 80GB HBM3
    Persistence Mode                      : Enabled
    PCI
        Bus Id                            : 00000000:18:00.0
        GPU Link Info
            PCIe Generation
                Max                       : 5
                Current                   : 5
            Link Width
                Max                       : 16x
                Current                   : 16x
        Replays Since Reset               : 7
    Performance State                     : P0
    Clocks Event Reasons
        Idle                              : Active
        SW Power Cap                      : Active
        HW Slowdown                       : Not Active
            HW Thermal Slowdown           : Not Active
            HW Power Brake Slowdown       : Active
        SW Thermal Slowdown               : Not Active
    ECC Mode
        Current                           : Enabled
        Pending                           : Enabled
    ECC Errors
        Volatile
            SRAM Correctable              : 3
            SRAM Uncorrectable Parity     : 1
            SRAM Uncorrectable SEC-DED    : 2
            DRAM Correctable              : 5
            DRAM Uncorrectable            : 0
        Aggregate
            SRAM Correctable              : 30
            SRAM Uncorrectable Parity     : 1
            SRAM Uncorrectable SEC-DED    : 2
            DRAM Correctable              : 50
            DRAM Uncorrectable            : 4
            SRAM Threshold Exceeded       : No
    Retired Pages
        Single Bit ECC                    : N/A
        Double Bit ECC                    : N/A
        Pending Page Blacklist            : N/A
    Remapped Rows
        Correctable Error                 : 0
        Uncorrectable Error               : 4
        Pending                           : Yes
        Remapping Failure Occurred        : No
        Bank Remap Availability Histogram
            Max                           : 2560 bank(s)
    Temperature
        GPU Shutdown T.Limit Temp         : -8 C
    Fabric
        State                             : Completed
        Status                            : Success
)";

TEST(NvidiaSmiQueryText, ReadsEveryHealthFieldOfAHopperGpu) {
  const GpuInventory inventory = test_support::Parsed(ParseNvidiaSmiQueryText(kHopperText, "q.txt"));
  EXPECT_EQ(inventory.driver_version, "565.57.01");
  EXPECT_EQ(inventory.cuda_version, "12.7");
  ASSERT_EQ(inventory.gpus.size(), 1u);
  const GpuRecord& gpu = inventory.gpus[0];
  EXPECT_EQ(gpu.bus_id, "00000000:18:00.0");
  EXPECT_EQ(gpu.product_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpu.persistence_mode, "Enabled");
  EXPECT_EQ(gpu.pcie.max_gen, 5);
  EXPECT_EQ(gpu.pcie.current_width, 16);
  EXPECT_EQ(gpu.ecc_mode, "Enabled");
  EXPECT_EQ(gpu.volatile_ecc.sram_correctable, 3);
  EXPECT_EQ(gpu.volatile_ecc.sram_uncorrectable, 3);  // parity + SEC-DED
  EXPECT_EQ(gpu.volatile_ecc.dram_correctable, 5);
  EXPECT_EQ(gpu.volatile_ecc.dram_uncorrectable, 0);
  EXPECT_EQ(gpu.aggregate_ecc.dram_uncorrectable, 4);
  EXPECT_EQ(gpu.aggregate_ecc.Uncorrectable(), 7);
  EXPECT_EQ(gpu.sram_threshold_exceeded, false);
  EXPECT_FALSE(gpu.retired_pages.pending.has_value());
  EXPECT_FALSE(gpu.retired_pages.double_bit_pages.has_value());
  EXPECT_EQ(gpu.remapped_rows.uncorrectable, 4);
  EXPECT_EQ(gpu.remapped_rows.pending, true);
  EXPECT_EQ(gpu.remapped_rows.failure, false);
  // The child under "HW Slowdown" is read as itself, not as its parent.
  EXPECT_EQ(gpu.clock_events.hw_slowdown, false);
  EXPECT_EQ(gpu.clock_events.hw_power_brake_slowdown, true);
  EXPECT_EQ(gpu.clock_events.sw_power_cap, true);
  EXPECT_EQ(gpu.fabric_state, "Completed");
}

TEST(NvidiaSmiQueryText, ReadsTheLabelsOfDriversBefore535AndPreAmpereCounts) {
  const std::string text =
      "==============NVSMI LOG==============\n"
      "GPU 00000001:00:00.0\n"
      "    Persistence Mode                      : Disabled\n"
      "    Clocks Throttle Reasons\n"
      "        HW Slowdown                       : Active\n"
      "    Ecc Mode\n"
      "        Current                           : Disabled\n"
      "    ECC Errors\n"
      "        Volatile\n"
      "            Single Bit            \n"
      "                Device Memory             : 2\n"
      "                Register File             : 1\n"
      "                Total                     : 3\n"
      "            Double Bit            \n"
      "                Device Memory             : 1\n"
      "                Register File             : 0\n"
      "                Total                     : 1\n"
      "    Retired Pages\n"
      "        Single Bit ECC                    : 0\n"
      "        Double Bit ECC                    : 2\n"
      "        Pending                           : Yes\n";
  const GpuInventory inventory = test_support::Parsed(ParseNvidiaSmiQueryText(text, "q.txt"));
  ASSERT_EQ(inventory.gpus.size(), 1u);
  const GpuRecord& gpu = inventory.gpus[0];
  EXPECT_EQ(gpu.bus_id, "00000001:00:00.0");
  EXPECT_EQ(gpu.persistence_mode, "Disabled");
  EXPECT_EQ(gpu.ecc_mode, "Disabled");
  EXPECT_EQ(gpu.clock_events.hw_slowdown, true);
  EXPECT_EQ(gpu.volatile_ecc.dram_correctable, 2);
  EXPECT_EQ(gpu.volatile_ecc.sram_correctable, 1);
  EXPECT_EQ(gpu.volatile_ecc.dram_uncorrectable, 1);
  EXPECT_EQ(gpu.volatile_ecc.sram_uncorrectable, 0);
  EXPECT_EQ(gpu.retired_pages.double_bit_pages, 2);
  EXPECT_EQ(gpu.retired_pages.pending, true);
}

TEST(NvidiaSmiQueryText, ADriverNvidiaSmiCannotReachIsAnErrorQuotingIt) {
  const auto parsed = ParseNvidiaSmiQueryText(
      "$ nvidia-smi\nmodprobe: FATAL: Module nvidia not found.\nNVIDIA-SMI has failed because it couldn't "
      "communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n",
      "node1/nvidia-smi-q.txt");
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().find("node1/nvidia-smi-q.txt:3"), std::string::npos) << parsed.error();
  EXPECT_NE(parsed.error().find("couldn't communicate with the NVIDIA driver"), std::string::npos) << parsed.error();
}

TEST(NvidiaSmiQueryText, AGpuItCannotOpenIsListedByCanonicalBusId) {
  const GpuInventory inventory = test_support::Parsed(ParseNvidiaSmiQueryText(
      "(venv) root@node1:~# nvidia-smi \nUnable to determine the device handle for GPU0000:A1:00.0: Unknown Error\n",
      "q.txt"));
  EXPECT_TRUE(inventory.gpus.empty());
  ASSERT_EQ(inventory.inaccessible_bus_ids.size(), 1u);
  EXPECT_EQ(inventory.inaccessible_bus_ids[0], "00000000:A1:00.0");
}

// Found by fuzzing (fuzz/regressions/nvidia_smi_query_text): two pre-Ampere SRAM counts near the
// top of long long overflowed when summed. A sum that large stays at the largest count.
TEST(NvidiaSmiQueryText, CountsTooLargeToSumStayAtTheLargestCount) {
  constexpr long long kMax = std::numeric_limits<long long>::max();
  EXPECT_EQ(SumCounts(kMax - 1, 5), kMax);
  EXPECT_EQ(SumCounts(7708377901976460401, 7708377901976460401), kMax);
  EXPECT_EQ(SumCounts(std::nullopt, 3), 3);
  EXPECT_EQ(SumCounts(2, 3), 5);
  EXPECT_FALSE(SumCounts(std::nullopt, std::nullopt));
}

TEST(NvidiaSmiQueryText, TextThatIsNotNvidiaSmiOutputIsAnError) {
  EXPECT_FALSE(ParseNvidiaSmiQueryText("hello: world\n", "q.txt"));
  EXPECT_FALSE(ParseNvidiaSmiQueryText("", "q.txt"));
}

TEST(NvidiaSmiQueryText, SurvivesTruncationAtEveryByte) {
  const std::string text = kHopperText;
  for (std::size_t size = 0; size <= text.size(); ++size) (void)ParseNvidiaSmiQueryText(text.substr(0, size), "q");
  SUCCEED() << "no crash on " << text.size() + 1 << " prefixes";
}

TEST(NvidiaSmiQueryXml, ReadsTheHealthFieldsOfSchemaV12) {
  const std::string xml = test_support::ReadFile(test_support::FixtureDir("gpu-health-h100-failing") +
                                                 "/nodes/hgx-node-01/nvidia-smi-q.xml");
  const GpuInventory inventory = test_support::Parsed(ParseNvidiaSmiGpus(xml, "q.xml"));
  ASSERT_EQ(inventory.gpus.size(), 7u);
  const GpuRecord& gpu1 = inventory.gpus[1];
  EXPECT_EQ(gpu1.persistence_mode, "Enabled");
  EXPECT_EQ(gpu1.ecc_mode, "Enabled");
  EXPECT_EQ(gpu1.volatile_ecc.dram_uncorrectable, 1);
  EXPECT_EQ(gpu1.volatile_ecc.sram_uncorrectable, 0);
  EXPECT_EQ(gpu1.aggregate_ecc.dram_uncorrectable, 1);
  EXPECT_EQ(gpu1.sram_threshold_exceeded, false);
  EXPECT_EQ(gpu1.remapped_rows.pending, true);
  EXPECT_EQ(gpu1.remapped_rows.uncorrectable, 1);
  EXPECT_FALSE(gpu1.retired_pages.pending.has_value());
  EXPECT_EQ(inventory.gpus[4].clock_events.hw_power_brake_slowdown, true);
  EXPECT_EQ(inventory.gpus[0].clock_events.hw_power_brake_slowdown, false);
}

TEST(NvidiaSmiQueryXml, ReadsThePreAmpereSchemaV10) {
  const std::string xml = R"(<?xml version="1.0" ?>
<nvidia_smi_log><driver_version>410.104</driver_version>
<gpu id="00000000:34:00.0"><persistence_mode>Enabled</persistence_mode>
<clocks_throttle_reasons><clocks_throttle_reason_hw_slowdown>Active</clocks_throttle_reason_hw_slowdown></clocks_throttle_reasons>
<ecc_mode><current_ecc>Enabled</current_ecc></ecc_mode>
<ecc_errors><volatile>
<single_bit><device_memory>1</device_memory><register_file>0</register_file><l1_cache>N/A</l1_cache><total>1</total></single_bit>
<double_bit><device_memory>1</device_memory><register_file>2</register_file><total>3</total></double_bit>
</volatile></ecc_errors>
<retired_pages><multiple_single_bit_retirement><retired_count>0</retired_count><retired_pagelist>
</retired_pagelist></multiple_single_bit_retirement><double_bit_retirement><retired_count>2</retired_count></double_bit_retirement>
<pending_retirement>Yes</pending_retirement></retired_pages></gpu></nvidia_smi_log>)";
  const GpuInventory inventory = test_support::Parsed(ParseNvidiaSmiGpus(xml, "q.xml"));
  ASSERT_EQ(inventory.gpus.size(), 1u);
  const GpuRecord& gpu = inventory.gpus[0];
  EXPECT_EQ(gpu.clock_events.hw_slowdown, true);
  EXPECT_EQ(gpu.volatile_ecc.dram_uncorrectable, 1);
  EXPECT_EQ(gpu.volatile_ecc.sram_uncorrectable, 2);  // register file, on-chip
  EXPECT_EQ(gpu.volatile_ecc.Uncorrectable(), 3);
  EXPECT_EQ(gpu.retired_pages.single_bit_pages, 0);
  EXPECT_EQ(gpu.retired_pages.double_bit_pages, 2);
  EXPECT_EQ(gpu.retired_pages.pending, true);
  EXPECT_FALSE(gpu.remapped_rows.pending.has_value());
}

TEST(NvidiaSmiBusIds, KernelAndNvidiaSmiSpellingsBecomeOne) {
  EXPECT_EQ(CanonicalBusId("0000:a1:00.0"), "00000000:A1:00.0");
  EXPECT_EQ(CanonicalBusId("00000000:A1:00.0"), "00000000:A1:00.0");
  EXPECT_EQ(CanonicalBusId("0001:00:00.0"), "00000001:00:00.0");
}

}  // namespace
}  // namespace gpuconform::nvidia_smi
