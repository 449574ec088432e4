// The kernel log parser: XID lines in each tool's time format, the multi-line "fallen off the
// bus" message without an XID, the XID catalogue's classes, and the PCIe AER driver's reports
// (as published: ../shared/realdata/pcie-aer).
#include "probes/kernel_log/kernel_log_parse.h"

#include <gtest/gtest.h>

#include "probes/kernel_log/xid_catalogue.h"
#include "tests/support/test_support.h"

namespace gpuconform::kernel_log {
namespace {

// The log the text parses to, read as dmesg.txt; a refused text records a failure.
KernelLog ParsedLog(const std::string& text) { return test_support::Parsed(ParseKernelLog(text, "dmesg.txt")); }

TEST(KernelLog, ReadsXidLinesInEveryTimeFormat) {
  const std::string text =
      "root@node1:~# dmesg -T | grep NVRM\n"
      "[Fri Apr  5 21:29:39 2024] NVRM: Xid (PCI:0000:a1:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen "
      "off the bus.\n"
      "kern  :warn  : 2025-01-21T02:21:33,498559+00:00 NVRM: Xid (PCI:0000:38:00): 13, pid='<unknown>', "
      "name=<unknown>, Graphics SM Warp Exception\n"
      "Feb 14 05:03:42 gpu-1 kernel: NVRM: Xid (PCI:0000:19:00): 94, pid=1248209, name=python3.10, Ch 00000008\n"
      "[ 1234.567890] NVRM: Xid (PCI:0000:1b:00): 119, pid=2203, name=nvidia-smi, Timeout after 6s of waiting\n";
  const KernelLog log = ParsedLog(text);
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
  const KernelLog log = ParsedLog(text);
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
  const KernelLog log = ParsedLog(text);
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_FALSE(log.events[0].from_bus_message);
}

TEST(KernelLog, LinesThatAreNotXidsAreIgnored) {
  const KernelLog log = ParsedLog(
      "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context\nNVRM: Xid (PCI:0000:19:00): x\n"
      "NVRM: loading NVIDIA UNIX x86_64 Kernel Module\n");
  EXPECT_TRUE(log.events.empty());
  EXPECT_EQ(log.lines, 3);
}

// ---- PCIe AER reports ----

TEST(KernelLogAer, AGpuReplayTimeoutThenSurpriseDownNamesTheGpuBelowTheRootPort) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const KernelLog log =
      ParsedLog(test_support::ReadFile(dir / "dmesg-tesla-gpu-replay-timeout-then-surprise-down-xid79.txt"));
  ASSERT_EQ(log.aer_events.size(), 2u);
  const AerEvent& replay = log.aer_events[0];
  EXPECT_EQ(replay.severity, AerSeverity::kCorrected);
  EXPECT_EQ(replay.device.address, "0000:00:02.0");
  EXPECT_EQ(replay.device.driver, "pcieport");
  EXPECT_EQ(replay.layer, "Data Link Layer");
  EXPECT_EQ(replay.errors, std::vector<std::string>{"Replay Timer Timeout"});
  EXPECT_EQ(replay.line, 2) << "the details replace the bare report of line 1";
  EXPECT_EQ(replay.timestamp, "74785.660380");
  const AerEvent& down = log.aer_events[1];
  EXPECT_EQ(down.severity, AerSeverity::kFatal);
  EXPECT_EQ(down.reported_by, "0000:00:02.0") << "id=0010 is bus 0, device 2, function 0";
  EXPECT_TRUE(down.SurpriseDown());
  ASSERT_EQ(down.affected.size(), 1u);
  EXPECT_EQ(down.affected[0].address, "0000:02:00.0");
  EXPECT_EQ(down.affected[0].driver, "nvidia");
  ASSERT_EQ(log.events.size(), 1u) << "and the Xid 79 the same fall gives";
  EXPECT_EQ(log.events[0].xid, 79);
}

TEST(KernelLogAer, CorrectedAdvisoryNonFatalReportsOfANicDuringAReset) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const KernelLog log =
      ParsedLog(test_support::ReadFile(dir / "dmesg-connectx5-mlx5-aer-corrected-advisory-nonfatal-during-flr.txt"));
  // Two reports with details (one per function) and two "received" lines without any.
  ASSERT_EQ(log.aer_events.size(), 4u);
  for (const AerEvent& event : log.aer_events) {
    EXPECT_EQ(event.severity, AerSeverity::kCorrected);
    EXPECT_EQ(event.reported_by, "0000:00:00.0");
  }
  EXPECT_EQ(log.aer_events[0].device.address, "0000:01:00.0");
  EXPECT_EQ(log.aer_events[0].device.driver, "mlx5_core");
  EXPECT_EQ(log.aer_events[0].layer, "Transaction Layer");
  EXPECT_EQ(log.aer_events[0].errors, std::vector<std::string>{"NonFatalErr"});
  EXPECT_EQ(log.aer_events[1].device.address, "0000:01:00.1");
  EXPECT_EQ(log.aer_events[2].device.address, "0000:01:00.0");
  EXPECT_TRUE(log.aer_events[2].errors.empty());
}

TEST(KernelLogAer, NewerKernelsNameTheSourceAndTheErrorsShort) {
  const std::string text =
      "[  10.1] pcieport 0000:80:02.0: AER: Uncorrected (Non-Fatal) error message received from 0000:81:00.0\n"
      "[  10.2] nvme 0000:81:00.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, "
      "(Requester ID)\n"
      "[  10.3] nvme 0000:81:00.0:   device [144d:a80a] error status/mask=00004000/00400000\n"
      "[  10.4] nvme 0000:81:00.0:    [14] CmpltTO                (First)\n"
      "[  20.0] pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:00:01.0\n"
      "[  20.1] pcieport 0000:00:01.0:    [ 5] SDES (First)\n";
  const KernelLog log = ParsedLog(text);
  ASSERT_EQ(log.aer_events.size(), 2u);
  EXPECT_EQ(log.aer_events[0].severity, AerSeverity::kNonFatal);
  EXPECT_EQ(log.aer_events[0].device.address, "0000:81:00.0");
  EXPECT_EQ(log.aer_events[0].errors, std::vector<std::string>{"CmpltTO"});
  EXPECT_EQ(log.aer_events[1].severity, AerSeverity::kFatal);
  EXPECT_EQ(log.aer_events[1].device.address, "0000:00:01.0");
  EXPECT_TRUE(log.aer_events[1].SurpriseDown()) << "SDES, as newer kernels name it";
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
