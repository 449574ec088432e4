// The kernel log parser: XID lines in each tool's time format, the multi-line "fallen off the
// bus" message without an XID, and the XID catalogue's classes.
#include "probes/kernel_log/kernel_log_parse.h"

#include <gtest/gtest.h>

#include "probes/kernel_log/xid_catalogue.h"
#include "tests/support/test_support.h"

namespace gpuconform::kernel_log {
namespace {

TEST(KernelLog, ReadsXidLinesInEveryTimeFormat) {
  const std::string text =
      "root@node1:~# dmesg -T | grep NVRM\n"
      "[Fri Apr  5 21:29:39 2024] NVRM: Xid (PCI:0000:a1:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen "
      "off the bus.\n"
      "kern  :warn  : 2025-01-21T02:21:33,498559+00:00 NVRM: Xid (PCI:0000:38:00): 13, pid='<unknown>', "
      "name=<unknown>, Graphics SM Warp Exception\n"
      "Feb 14 05:03:42 gpu-1 kernel: NVRM: Xid (PCI:0000:19:00): 94, pid=1248209, name=python3.10, Ch 00000008\n"
      "[ 1234.567890] NVRM: Xid (PCI:0000:1b:00): 119, pid=2203, name=nvidia-smi, Timeout after 6s of waiting\n";
  const KernelLog log = test_support::Parsed(ParseKernelLog(text, "dmesg.txt"));
  ASSERT_EQ(log.events.size(), 4u);
  EXPECT_EQ(log.events[0].xid, 79);
  EXPECT_EQ(log.events[0].bus_id, "00000000:A1:00.0");
  EXPECT_EQ(log.events[0].timestamp, "Fri Apr  5 21:29:39 2024");
  EXPECT_EQ(log.events[0].line, 2);
  EXPECT_EQ(log.events[1].xid, 13);
  EXPECT_EQ(log.events[1].timestamp, "2025-01-21T02:21:33,498559+00:00");
  EXPECT_EQ(log.events[2].xid, 94);
  EXPECT_EQ(log.events[2].bus_id, "00000000:19:00.0");
  EXPECT_EQ(log.events[2].timestamp, "Feb 14 05:03:42");
  EXPECT_EQ(log.events[3].xid, 119);
  EXPECT_EQ(log.events[3].timestamp, "1234.567890");
}

TEST(KernelLog, AFallenOffTheBusMessageWithoutAnXidIsXid79OfItsGpu) {
  const std::string text =
      "Feb 14 05:03:42 host kernel: nvidia 0000:18:00.0: enabling device (0140 -> 0142)\n"
      "\n"
      "Feb 14 05:03:42 host kernel: NVRM: The NVIDIA GPU 0000:18:00.0\n"
      "                                              NVRM: (PCI ID: 10de:2901) installed in this system has\n"
      "                                              NVRM: fallen off the bus and is not responding to commands.\n"
      "Feb 14 05:03:42 host kernel: nvidia: probe of 0000:18:00.0 failed with error -1\n";
  const KernelLog log = test_support::Parsed(ParseKernelLog(text, "dmesg.txt"));
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0].xid, 79);
  EXPECT_TRUE(log.events[0].from_bus_message);
  EXPECT_EQ(log.events[0].bus_id, "00000000:18:00.0");
  EXPECT_EQ(log.events[0].line, 3);
}

TEST(KernelLog, TheSameFallLoggedAsXidAndAsMessageIsOneEvent) {
  const std::string text =
      "[Fri Apr  5 21:29:39 2024] NVRM: Xid (PCI:0000:a1:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen "
      "off the bus.\n"
      "[Fri Apr  5 21:29:39 2024] NVRM: GPU 0000:a1:00.0: GPU has fallen off the bus.\n";
  const KernelLog log = test_support::Parsed(ParseKernelLog(text, "dmesg.txt"));
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_FALSE(log.events[0].from_bus_message);
}

TEST(KernelLog, LinesThatAreNotXidsAreIgnored) {
  const KernelLog log = test_support::Parsed(ParseKernelLog(
      "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context\nNVRM: Xid (PCI:0000:19:00): x\n"
      "NVRM: loading NVIDIA UNIX x86_64 Kernel Module\n",
      "dmesg.txt"));
  EXPECT_TRUE(log.events.empty());
  EXPECT_EQ(log.lines, 3);
}

TEST(XidCatalogue, ClassifiesAsNvidiaDocuments) {
  EXPECT_EQ(LookUpXid(13).xid_class, XidClass::kApplication);
  EXPECT_EQ(LookUpXid(43).xid_class, XidClass::kApplication);
  for (int xid : {48, 63, 64, 74, 79, 94, 95}) EXPECT_EQ(LookUpXid(xid).xid_class, XidClass::kHardware) << xid;
  for (int xid : {119, 120}) EXPECT_EQ(LookUpXid(xid).xid_class, XidClass::kDriver) << xid;
  EXPECT_EQ(LookUpXid(9999).xid_class, XidClass::kUnlisted);
  EXPECT_NE(LookUpXid(79).action.find("reboot"), std::string_view::npos);
  EXPECT_NE(LookUpXid(63).action.find("reset the GPU"), std::string_view::npos);
}

}  // namespace
}  // namespace gpuconform::kernel_log
