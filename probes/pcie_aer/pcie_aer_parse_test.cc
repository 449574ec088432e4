// PCIe AER counters in each format operators read them in: gpuconform's sysfs probe (against
// a sysfs tree built here, as the kernel lays it out), the aer_dev_* files dumped raw, and
// lspci -vvv's AER status registers, as published (../shared/realdata/pcie-aer).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/core/live_source.h"
#include "probes/pcie_aer/pcie_aer_parse.h"
#include "probes/pcie_aer/pcie_aer_probe.h"
#include "tests/support/test_support.h"

namespace gpuconform::pcie_aer {
namespace {

namespace fs = std::filesystem;
using test_support::Parsed;

const AerDevice* Device(const AerReport& report, const std::string& address) {
  for (const auto& device : report.devices) {
    if (device.address == address) return &device;
  }
  return nullptr;
}

void WriteFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string AerFile(const std::vector<std::string>& names, const std::string& total, int nonzero_value = 0) {
  std::string text;
  for (const auto& name : names) text += name + " " + std::to_string(name == names.front() ? nonzero_value : 0) + "\n";
  return text + total + " " + std::to_string(nonzero_value) + "\n";
}

TEST(PcieAerProbe, ReadsEveryDeviceWithAerFilesFromSysfs) {
  test_support::TempDir root;
  const fs::path devices = fs::path(root.path()) / "bus/pci/devices";
  const std::vector<std::string> correctable = {"RxErr", "BadTLP", "BadDLLP", "Rollover", "Timeout",
                                                "NonFatalErr", "CorrIntErr", "HeaderOF"};
  const std::vector<std::string> uncorrectable = {"Undefined", "DLP", "SDES", "TLP", "FCP", "CmpltTO"};
  // A GPU with errors, a bridge without, and a device without AER (left out).
  for (const auto& [address, klass, errors] : std::vector<std::tuple<std::string, std::string, int>>{
           {"0000:18:00.0", "0x030200", 7}, {"0000:17:01.0", "0x060400", 0}, {"0000:00:1f.0", "0x060100", -1}}) {
    WriteFile(devices / address / "class", klass + "\n");
    WriteFile(devices / address / "vendor", "0x10de\n");
    if (errors < 0) continue;
    WriteFile(devices / address / "aer_dev_correctable", AerFile(correctable, "TOTAL_ERR_COR", errors));
    WriteFile(devices / address / "aer_dev_nonfatal", AerFile(uncorrectable, "TOTAL_ERR_NONFATAL"));
    WriteFile(devices / address / "aer_dev_fatal", AerFile(uncorrectable, "TOTAL_ERR_FATAL"));
  }
  RunOptions options;
  options.sysfs_root = root.path();
  const RawOutput out = AerOutput(LiveContext{"node1", nullptr, options});
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out.text.find("aer sysfs_root=" + root.path() + " pci_device_count=3 device_count=2"), std::string::npos)
      << out.text;
  const auto report = Parsed(ParseAer(out.text, "node1/aer.txt"));
  EXPECT_EQ(report.format, "sysfs");
  ASSERT_EQ(report.devices.size(), 2u);
  const AerDevice* gpu = Device(report, "0000:18:00.0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->kind, DeviceKind::kGpu);
  EXPECT_EQ(gpu->vendor, "0x10de");
  EXPECT_EQ(gpu->correctable.total, 7u);
  EXPECT_EQ(gpu->correctable.errors.at("RxErr"), 7u);
  EXPECT_EQ(gpu->correctable.errors.count("TOTAL_ERR_COR"), 0u) << "the total is not an error";
  EXPECT_TRUE(gpu->fatal.read);
  EXPECT_EQ(gpu->fatal.errors.at("SDES"), 0u);
  EXPECT_EQ(Device(report, "0000:17:01.0")->kind, DeviceKind::kBridge);
}

// As the kernel lays it out, bus/pci/devices/<addr> links into the device tree, where the
// directory above a device is the bridge it sits behind.
TEST(PcieAerProbe, NamesTheBridgeAboveADeviceFromTheDeviceTree) {
  test_support::TempDir root;
  const fs::path tree = fs::path(root.path()) / "devices/pci0000:16/0000:16:02.0/0000:17:01.0/0000:18:00.0";
  WriteFile(tree / "class", "0x030200\n");
  WriteFile(tree / "aer_dev_correctable", "RxErr 0\nTOTAL_ERR_COR 0\n");
  WriteFile(tree / "aer_dev_nonfatal", "SDES 0\nTOTAL_ERR_NONFATAL 0\n");
  WriteFile(tree / "aer_dev_fatal", "SDES 0\nTOTAL_ERR_FATAL 0\n");
  fs::create_directories(fs::path(root.path()) / "bus/pci/devices");
  fs::create_directory_symlink(tree, fs::path(root.path()) / "bus/pci/devices/0000:18:00.0");
  RunOptions options;
  options.sysfs_root = root.path();
  const auto report = Parsed(ParseAer(AerOutput(LiveContext{"node1", nullptr, options}).text, "node1/aer.txt"));
  ASSERT_EQ(report.devices.size(), 1u);
  EXPECT_EQ(report.devices[0].parent, "0000:17:01.0");
}

TEST(PcieAerProbe, AMachineWithoutPciSysfsHasNoDevices) {
  test_support::TempDir root;
  RunOptions options;
  options.sysfs_root = root.path();
  const RawOutput out = AerOutput(LiveContext{"node1", nullptr, options});
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(Parsed(ParseAer(out.text, "node1/aer.txt")).devices.empty());
}

TEST(PcieAerParse, KindsFromTheClassCode) {
  EXPECT_EQ(KindOfClass("0x030200"), DeviceKind::kGpu);
  EXPECT_EQ(KindOfClass("0x030000"), DeviceKind::kGpu);
  EXPECT_EQ(KindOfClass("0x020700"), DeviceKind::kNic);
  EXPECT_EQ(KindOfClass("0x020000"), DeviceKind::kNic);
  EXPECT_EQ(KindOfClass("0x060400"), DeviceKind::kBridge);
  EXPECT_EQ(KindOfClass("0x010802"), DeviceKind::kOther);
  EXPECT_EQ(KindOfClass(""), DeviceKind::kOther);
}

// grep's dump of one GPU's aer_dev_correctable (its fatal lines were cut off): every class at 0.
TEST(PcieAerParse, RawSysfsDumpOfAnAllZeroCorrectableFile) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const auto report = Parsed(
      ParseAer(test_support::ReadFile(dir / "sysfs-aer-dev-correctable-drm-card1-all-zero.txt"), "card1.txt"));
  EXPECT_EQ(report.format, "sysfs-dump");
  ASSERT_EQ(report.devices.size(), 1u);
  const AerDevice& device = report.devices[0];
  EXPECT_EQ(device.address, "/sys/class/drm/card1/device") << "no PCI address in the path: its directory";
  EXPECT_TRUE(device.correctable.read);
  EXPECT_FALSE(device.fatal.read);
  EXPECT_EQ(device.correctable.errors.size(), 8u);
  EXPECT_EQ(device.correctable.total, 0u);
}

TEST(PcieAerParse, BareFilesAreToldApartByTheirTotalLine) {
  const auto report = Parsed(ParseAer("RxErr 3\nBadTLP 1\nTOTAL_ERR_COR 4\nDLP 0\nSDES 2\nTOTAL_ERR_FATAL 2\n", "f"));
  ASSERT_EQ(report.devices.size(), 1u);
  EXPECT_EQ(report.devices[0].correctable.total, 4u);
  EXPECT_EQ(report.devices[0].fatal.errors.at("SDES"), 2u);
  EXPECT_FALSE(report.devices[0].nonfatal.read);
  const auto grep = Parsed(ParseAer("/sys/bus/pci/devices/0000:19:00.0/aer_dev_nonfatal:CmpltTO 5\n", "f"));
  ASSERT_EQ(grep.devices.size(), 1u);
  EXPECT_EQ(grep.devices[0].address, "0000:19:00.0");
  EXPECT_EQ(grep.devices[0].nonfatal.total, 5u) << "no TOTAL line: the sum of the errors";
}

// The H100 whose Gen5 link latched correctable errors that CEMsk hides from the kernel.
TEST(PcieAerParse, LspciStatusFlagsAreAtLeastOnce) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const auto report = Parsed(
      ParseAer(test_support::ReadFile(dir / "lspci-vvv-h100-sxm-19-00.0-cesta-rxerr-badtlp-timeout.txt"), "lspci"));
  EXPECT_EQ(report.format, "lspci");
  EXPECT_TRUE(report.flags_only);
  ASSERT_EQ(report.devices.size(), 1u);
  const AerDevice& gpu = report.devices[0];
  EXPECT_EQ(gpu.address, "0000:19:00.0");
  EXPECT_EQ(gpu.kind, DeviceKind::kGpu);
  EXPECT_EQ(gpu.correctable.total, 3u);
  EXPECT_EQ(gpu.correctable.errors, (std::map<std::string, std::uint64_t>{{"BadTLP", 1}, {"RxErr", 1}, {"Timeout", 1}}));
  EXPECT_TRUE(gpu.nonfatal.read);
  EXPECT_EQ(gpu.nonfatal.total + gpu.fatal.total, 0u) << "UESta is clean";
}

TEST(PcieAerParse, LspciUncorrectedFlagsTakeTheirSeverityFromUESvrt) {
  const auto report = Parsed(ParseAer("0000:5e:00.0 Infiniband controller: Mellanox Technologies MT2910\n"
                                      "\tCapabilities: [100 v1] Advanced Error Reporting\n"
                                      "\t\tUESta:\tDLP- SDES+ TLP- CmpltTO+\n"
                                      "\t\tUESvrt:\tDLP+ SDES+ TLP+ CmpltTO-\n"
                                      "\t\tCESta:\tRxErr- BadTLP-\n"
                                      "17:01.0 PCI bridge: Broadcom / LSI PEX890xx\n"
                                      "\tCapabilities: [40] Power Management version 3\n",
                                      "lspci"));
  ASSERT_EQ(report.devices.size(), 1u) << "the bridge has no AER capability";
  EXPECT_EQ(report.devices[0].kind, DeviceKind::kNic);
  EXPECT_EQ(report.devices[0].fatal.errors.at("SDES"), 1u);
  EXPECT_EQ(report.devices[0].nonfatal.errors.at("CmpltTO"), 1u);
}

TEST(PcieAerParse, RefusesOtherTextAndBadCounts) {
  test_support::ExpectEachRefused(
      ParseAer, {
                    {"", "f:1: not PCIe AER counters"},
                    {"hello world\n", "f:1: not PCIe AER counters"},
                    {"RxErr 1\nBadTLP x\n", "f:2: not an aer_dev_* counter line"},
                    {"DLP 1\n", "f:1: DLP: counters without a TOTAL_ERR_* line"},
                    {"device address=0000:18:00.0\ncounter address=0000:18:00.0 file=aer_dev_fatal name=DLP value=-1\n",
                     "f:2: value='-1'"},
                    {"counter address=0000:18:00.0 file=aer_dev_fatal name=DLP value=1\n", "f:1: a counter of"},
                    {"device address=nowhere\n", "f:1: address='nowhere'"},
                    {"19:00.0 3D controller: x\n\tCESta: RxErr+ BadTLP?\n", "f:2: 'BadTLP?' is not a +/- flag"},
                });
}

TEST(PcieAerParse, NeverCrashesOnTruncatedOrNoisyInput) {
  test_support::SurvivesTruncationAndNoise(
      "device address=0000:18:00.0 class=0x030200\ncounter address=0000:18:00.0 file=aer_dev_correctable "
      "name=RxErr value=3\n19:00.0 3D controller: NVIDIA\n\tUESta: DLP- SDES+\n\tCESta: RxErr+\nRxErr 1\n"
      "TOTAL_ERR_COR 1\n",
      ParseAer);
}

}  // namespace
}  // namespace gpuconform::pcie_aer
