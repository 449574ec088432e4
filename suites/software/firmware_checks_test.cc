#include "suites/software/firmware_checks.h"

#include <gtest/gtest.h>

#include <set>

#include "probes/ib_tools/ib_tools_parse.h"
#include "probes/nvidia_smi/query_text_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::software {
namespace {

using facts::DeviceFirmware;
using facts::FirmwareReading;

const FirmwareComponent kVbios{"vbios", "VBIOS", "VbiosVersionIdentical", true, "flash it"};
const FirmwareComponent kHca{"hca_firmware", "HCA firmware", "HcaFirmwareIdentical", false, "mlxfwmanager -u"};

Profile GpuProfile() {
  Profile p;
  p.name = "h100-sxm-8";
  p.gpu = GpuExpectation{true, 8, "H100", "datasheet"};
  p.infiniband = InfinibandExpectation{true, 8, "InfiniBand", 400, false, "datasheet"};
  p.Set(SoftwareExpectation{.identical_across_nodes = {"vbios", "hca_firmware"}});
  return p;
}

FirmwareReading Devices(std::vector<DeviceFirmware> devices) {
  FirmwareReading reading;
  reading.read = true;
  reading.devices = std::move(devices);
  return reading;
}

FirmwareReading Gpus(const std::string& version, int count = 8) {
  std::vector<DeviceFirmware> devices;
  for (int i = 0; i < count; ++i) devices.push_back({"GPU " + std::to_string(i), "NVIDIA H100 80GB HBM3", version});
  return Devices(devices);
}

bool AnyFinding(const CheckResult& result, const std::string& code, const std::string& entity, const std::string& part) {
  for (const auto& finding : result.findings) {
    if (finding.code == code && finding.entity == entity && finding.message.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(FirmwareIdentical, SameVersionEverywherePassesAndRecordsEachNode) {
  const CheckResult result =
      CheckFirmwareIdentical(kVbios, {{"n1", Gpus("96.00.74.00.0D")}, {"n2", Gpus("96.00.74.00.0D")}}, GpuProfile());
  EXPECT_EQ(result.verdict, Verdict::kPass);
  ASSERT_EQ(result.measurements.size(), 2u);
  EXPECT_EQ(result.measurements[0].name, "n1.vbios");
  EXPECT_EQ(result.measurements[0].value, "96.00.74.00.0D");
}

TEST(FirmwareIdentical, OneOddGpuFailsNamingNodeGpuAndTheMajority) {
  FirmwareReading odd = Gpus("96.00.74.00.0D");
  odd.devices[5].version = "96.00.99.00.01";
  const CheckResult result = CheckFirmwareIdentical(
      kVbios, {{"n1", Gpus("96.00.74.00.0D")}, {"n2", Gpus("96.00.74.00.0D")}, {"n3", odd}}, GpuProfile());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_TRUE(AnyFinding(result, "firmware-skew", "n3",
                         "n3: VBIOS 96.00.99.00.01 on GPU 5 (NVIDIA H100 80GB HBM3), expected 96.00.74.00.0D like 23 of "
                         "24 NVIDIA H100 80GB HBM3 GPUs (on n1, n2, n3): flash it"))
      << result.findings[0].message;
  EXPECT_EQ(result.measurements[2].value, "96.00.74.00.0D (GPU 0, GPU 1, GPU 2, GPU 3, GPU 4, GPU 6, GPU 7); "
                                          "96.00.99.00.01 (GPU 5)");
}

TEST(FirmwareIdentical, DevicesAreComparedOnlyWithTheirOwnModel) {
  // A ConnectX-7 and a ConnectX-6 Dx in one node run two firmware lines by design.
  auto node = [](const std::string& cx7) {
    return Devices({{"mlx5_0", "MT4129", cx7}, {"mlx5_1", "MT4129", "28.39.1002"}, {"mlx5_2", "MT4125", "22.39.1002"}});
  };
  EXPECT_EQ(CheckFirmwareIdentical(kHca, {{"n1", node("28.39.1002")}, {"n2", node("28.39.1002")}}, GpuProfile()).verdict,
            Verdict::kPass);
  const CheckResult result =
      CheckFirmwareIdentical(kHca, {{"n1", node("28.39.1002")}, {"n2", node("28.35.2000")}}, GpuProfile());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_TRUE(AnyFinding(result, "firmware-skew", "n2", "n2: HCA firmware 28.35.2000 on mlx5_0 (MT4129), expected "
                                                        "28.39.1002 like 3 of 4 MT4129 HCAs"));
}

TEST(FirmwareIdentical, APinWinsOverTheMajorityPerModel) {
  Profile profile = GpuProfile();
  profile.Set(SoftwareExpectation{.identical_across_nodes = {"vbios", "hca_firmware"},
                                  .pinned = {{"hca_firmware", "MT4129", "28.41.1000"}},
                                  .source = "the fabric vendor's support matrix"});
  auto node = [] { return Devices({{"mlx5_0", "MT4129", "28.39.1002"}, {"mlx5_2", "MT4125", "22.39.1002"}}); };
  const CheckResult result = CheckFirmwareIdentical(kHca, {{"n1", node()}, {"n2", node()}}, profile);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u) << "both MT4129 HCAs, not the unpinned MT4125 ones";
  EXPECT_TRUE(AnyFinding(result, "firmware-skew", "n1",
                         "expected 28.41.1000 (pinned in profile h100-sxm-8: the fabric vendor's support matrix)"));
}

TEST(FirmwareIdentical, AnEvenSplitNamesEveryGroupAndAsksForAPin) {
  const CheckResult result =
      CheckFirmwareIdentical(kVbios, {{"n1", Gpus("96.00.74.00.0D")}, {"n2", Gpus("96.00.74.00.01")}}, GpuProfile());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_TRUE(AnyFinding(result, "firmware-skew", "n1", "split evenly"));
  EXPECT_TRUE(AnyFinding(result, "firmware-skew", "n2", "software.pinned"));
}

TEST(FirmwareIdentical, UnreportedAndUnreadableNodesAreErrorsNotPasses) {
  FirmwareReading trimmed = Gpus("");
  const CheckResult unreported = CheckFirmwareIdentical(kVbios, {{"n1", trimmed}, {"n2", trimmed}}, GpuProfile());
  ASSERT_EQ(unreported.verdict, Verdict::kError);
  EXPECT_TRUE(AnyFinding(unreported, "firmware-unreported", "n1", "no VBIOS version for GPU 0"));

  FirmwareReading unread;
  unread.problem = "n2: nvidia-smi-q.xml: invalid XML";
  const CheckResult partly = CheckFirmwareIdentical(kVbios, {{"n1", Gpus("96.00.74.00.0D")}, {"n2", unread}}, GpuProfile());
  ASSERT_EQ(partly.verdict, Verdict::kError);
  EXPECT_TRUE(AnyFinding(partly, "unparseable", "n2", "invalid XML"));

  // A skew found elsewhere keeps the node that could not be read in the same result.
  FirmwareReading odd = Gpus("96.00.74.00.0D");
  odd.devices[0].version = "96.00.99.00.01";
  const CheckResult both = CheckFirmwareIdentical(
      kVbios, {{"n1", Gpus("96.00.74.00.0D")}, {"n2", unread}, {"n3", odd}}, GpuProfile());
  ASSERT_EQ(both.verdict, Verdict::kFail);
  EXPECT_TRUE(AnyFinding(both, "firmware-skew", "n3", "GPU 0"));
  EXPECT_TRUE(AnyFinding(both, "unparseable", "n2", "invalid XML"));
}

TEST(FirmwareIdentical, NotApplicableOrNotListedSkipsSaying) {
  Profile no_gpu = GpuProfile();
  no_gpu.gpu->present = false;
  EXPECT_EQ(CheckFirmwareIdentical(kVbios, {{"n1", Gpus("x")}}, no_gpu).verdict, Verdict::kSkip);
  Profile no_ib = GpuProfile();
  no_ib.infiniband.reset();
  EXPECT_EQ(CheckFirmwareIdentical(kHca, {{"n1", Devices({})}}, no_ib).verdict, Verdict::kSkip);
  Profile unlisted = GpuProfile();
  unlisted.Unset<SoftwareExpectation>();
  const CheckResult skipped = CheckFirmwareIdentical(kVbios, {{"n1", Gpus("a")}, {"n2", Gpus("b")}}, unlisted);
  EXPECT_EQ(skipped.verdict, Verdict::kSkip);
  ASSERT_FALSE(skipped.findings.empty());
  EXPECT_NE(skipped.findings[0].message.find("recorded only"), std::string::npos);
  EXPECT_EQ(skipped.measurements.size(), 2u);
}

// The parsers read the versions the realdata shows, and a mixed-model node passes.
TEST(FirmwareIdentical, RealdataVersionsAreReadAndAMixedModelNodePasses) {
  GPUCONFORM_REALDATA_OR_SKIP(ib, "ib-status");
  const auto ports = ib_tools::ParseIbPorts(test_support::ReadFile(ib / "gpud-h100-cx7-ib-ndr-8up-eth-3down.txt"), "o");
  ASSERT_TRUE(ports) << ports.error();
  FirmwareReading hcas = Devices({});
  std::set<std::string> seen;
  for (const auto& port : ports->ports) {
    if (seen.insert(port.ca).second) hcas.devices.push_back({port.ca, port.ca_type, port.firmware_version});
  }
  ASSERT_EQ(hcas.devices.size(), 12u);
  EXPECT_EQ(hcas.devices[0].version, "28.39.1002");  // mlx5_0, MT4129
  EXPECT_EQ(hcas.devices[1].version, "22.38.1002");  // mlx5_1, MT4125
  EXPECT_EQ(CheckFirmwareIdentical(kHca, {{"gpud-h100", hcas}}, GpuProfile()).verdict, Verdict::kPass);

  GPUCONFORM_REALDATA_OR_SKIP(smi, "nvidia-smi-q");
  const auto text = nvidia_smi::ParseNvidiaSmiQueryText(
      test_support::ReadFile(smi / "azhpc-diag-8x-a100-persistence-disabled.txt"), "o");
  ASSERT_TRUE(text) << text.error();
  ASSERT_EQ(text->gpus.size(), 8u);
  for (const auto& gpu : text->gpus) {
    EXPECT_EQ(gpu.vbios_version, "92.00.36.00.04");
    EXPECT_EQ(gpu.inforom_image_version, "G506.0200.00.04");
  }
  const auto xml = nvidia_smi::ParseNvidiaSmiGpus(
      test_support::ReadFile(smi / "pai-v100-sxm3-dbe-retired-pages-pending.xml"), "o");
  ASSERT_TRUE(xml) << xml.error();
  ASSERT_FALSE(xml->gpus.empty());
  EXPECT_EQ(xml->gpus[0].vbios_version, "88.00.6B.00.01");
  EXPECT_EQ(xml->gpus[0].inforom_image_version, "G504.0200.00.03");
}

// Through the registered suite: the healthy node passes all three, and the drift fixture fails
// naming the RMA'd GPU and the HCA that missed the roll-out, not the other HCA model.
TEST(FirmwareIdentical, SnapshotsOfHealthyAndDriftedFleets) {
  auto judged = [](const std::string& snapshot, const std::string& check) {
    return test_support::CheckOnFixture("Software", check, snapshot, test_support::BuiltinProfile("h100-sxm-8"));
  };
  for (const char* check : {"VbiosVersionIdentical", "InforomVersionIdentical", "HcaFirmwareIdentical"}) {
    EXPECT_EQ(judged("topo-h100-healthy", check).verdict, Verdict::kPass) << check;
  }
  const CheckResult vbios = judged("h100-3node-firmware-drift", "VbiosVersionIdentical");
  ASSERT_EQ(vbios.verdict, Verdict::kFail);
  ASSERT_EQ(vbios.findings.size(), 1u);
  EXPECT_TRUE(AnyFinding(vbios, "firmware-skew", "gpu-node-03", "VBIOS 96.00.99.00.01 on GPU 5 (00000000:"))
      << vbios.findings[0].message;
  const CheckResult hca = judged("h100-3node-firmware-drift", "HcaFirmwareIdentical");
  ASSERT_EQ(hca.verdict, Verdict::kFail);
  ASSERT_EQ(hca.findings.size(), 1u) << "the ConnectX-6 Dx ports run their own firmware line";
  EXPECT_TRUE(AnyFinding(hca, "firmware-skew", "gpu-node-02",
                         "HCA firmware 28.35.2000 on mlx5_3 (MT4129), expected 28.39.1002 like 23 of 24 MT4129 HCAs"))
      << hca.findings[0].message;
  EXPECT_EQ(judged("h100-3node-firmware-drift", "InforomVersionIdentical").verdict, Verdict::kPass);
}

}  // namespace
}  // namespace gpuconform::software
