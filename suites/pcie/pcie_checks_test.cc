#include "suites/pcie/pcie_checks.h"

#include <gtest/gtest.h>

#include "probes/nic_pcie/nic_pcie_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "suites/nvswitch/topo_test_support.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::pcie {

using namespace gpuconform::nvidia_smi;
namespace {

using topo_test::ExpectOnlyFinding;

Profile H100() {
  Profile p;
  p.name = "h100-sxm-8";
  p.gpu = GpuExpectation{true, 8, "H100", "datasheet"};
  return p;
}

std::string Gpu(const std::string& bus, const std::string& gen, const std::string& width,
                const std::string& pstate = "P0") {
  return "<gpu id=\"" + bus + "\"><product_name>NVIDIA H100 80GB HBM3</product_name><pci><pci_gpu_link_info>"
         "<pcie_gen><max_link_gen>5</max_link_gen><current_link_gen>" + gen + "</current_link_gen></pcie_gen>"
         "<link_widths><max_link_width>16x</max_link_width><current_link_width>" + width +
         "</current_link_width></link_widths></pci_gpu_link_info></pci><performance_state>" + pstate +
         "</performance_state></gpu>";
}

std::string Log(const std::string& gpus) {
  return "<?xml version=\"1.0\" ?>\n<nvidia_smi_log><driver_version>550.54.15</driver_version>" + gpus +
         "</nvidia_smi_log>\n";
}

// An nvidia-smi -q -x output, parsed as the check receives it.
GpuInventory Inventory(const std::string& xml) { return test_support::Parsed(ParseNvidiaSmiGpus(xml, "o")); }

const std::string kFixtureXml = "topo-h100-healthy/nodes/hgx-node-01/nvidia-smi-q.xml";

TEST(PcieParse, ReadsTheFixtureInventory) {
  const std::string xml = topo_test::ReadFile(topo_test::FixtureDir(kFixtureXml));
  const auto inventory = test_support::Parsed(ParseNvidiaSmiGpus(xml, "fixture"));
  ASSERT_EQ(inventory.gpus.size(), 8u);
  const GpuRecord& gpu = inventory.gpus[5];
  EXPECT_EQ(gpu.bus_id, "00000000:AB:00.0");
  EXPECT_EQ(gpu.product_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpu.pcie.max_gen, 5);
  EXPECT_EQ(gpu.pcie.current_width, 16);
  EXPECT_EQ(gpu.fabric_state, "Completed");
  EXPECT_EQ(GpuDisplayName(gpu), "GPU 5 (00000000:AB:00.0)");
}

TEST(PcieParse, NotReportedFieldsStayUnsetAndBadXmlNamesTheLine) {
  const auto na = test_support::Parsed(ParseNvidiaSmiGpus(Log(Gpu("00000000:18:00.0", "N/A", "N/A")), "o"));
  EXPECT_FALSE(na.gpus[0].pcie.current_gen);
  test_support::ExpectErrorStartingWith(
      ParseNvidiaSmiGpus("<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n<gpu id=", "n1/nvidia-smi-q.xml"),
      "n1/nvidia-smi-q.xml:3: ");
  EXPECT_FALSE(ParseNvidiaSmiGpus("<graphs/>", "o"));
}

TEST(PcieParse, SurvivesEveryTruncationAndRandomBytes) {
  topo_test::SurvivesTruncationAndNoise(topo_test::ReadFile(topo_test::FixtureDir(kFixtureXml)),
                                        ParseNvidiaSmiGpus);
  SUCCEED() << "no crash";
}

TEST(PcieLinksAtMaxGenAndWidth, FullLinksConform) {
  const auto result = CheckLinksAtMaxGenAndWidth("n1", Inventory(Log(Gpu("b0", "5", "16x"))), H100());
  EXPECT_EQ(result.verdict, Verdict::kPass);
}

TEST(PcieLinksAtMaxGenAndWidth, DowntrainedWidthOrGenerationFailsNamingTheBusId) {
  const auto x8 = CheckLinksAtMaxGenAndWidth("n1", Inventory(Log(Gpu("00000000:18:00.0", "5", "16x") + Gpu("00000000:9A:00.0", "5", "8x"))),
      H100());
  ExpectOnlyFinding(x8, "n1/gpu1", "n1: GPU 1 (00000000:9A:00.0) PCIe link is x8, expected x16");

  const auto gen3 = CheckLinksAtMaxGenAndWidth("n1", Inventory(Log(Gpu("00000000:18:00.0", "3", "16x"))),
                                               H100());
  ASSERT_EQ(gen3.verdict, Verdict::kFail);
  EXPECT_EQ(gen3.findings[0].code, "pcie-gen");
  EXPECT_NE(gen3.findings[0].message.find("PCIe link is Gen3, expected Gen5"), std::string::npos);
  EXPECT_EQ(gen3.findings[0].message.find("idle"), std::string::npos);

  const auto idle = CheckLinksAtMaxGenAndWidth("n1", Inventory(Log(Gpu("00000000:18:00.0", "1", "16x", "P8"))), H100());
  ASSERT_EQ(idle.verdict, Verdict::kFail);
  EXPECT_NE(idle.findings[0].message.find("in P8: an idle GPU may lower its link generation"), std::string::npos);
}

TEST(PcieLinksAtMaxGenAndWidth, UnreportedLinksAndNoGpusAreErrors) {
  const auto na = CheckLinksAtMaxGenAndWidth("n1", Inventory(Log(Gpu("b0", "N/A", "N/A"))), H100());
  EXPECT_EQ(na.verdict, Verdict::kError);
  EXPECT_NE(na.findings[0].message.find("GPU 0 (b0)"), std::string::npos);
  EXPECT_EQ(CheckLinksAtMaxGenAndWidth("n1", Inventory(Log("")), H100()).verdict, Verdict::kError);
}

// The suite reads the GPU listing before judging: without NVML or nvidia-smi the check errs,
// naming the missing driver; a profile without GPUs skips it before any read.
TEST(PcieLinksAtMaxGenAndWidth, MissingDriverIsAnErrorAndANoGpuProfileSkips) {
  const ClusterRaw raw = test_support::RawOf(
      {{"n1", {{"nvidia-smi-q", {ProbeStatus::kToolMissing, "", "", "n1: `nvidia-smi` is not installed"}}}}});
  const auto no_driver = test_support::JudgeRegisteredOnce(kSuite, kLinksAtMaxGenAndWidth, raw, H100());
  EXPECT_EQ(no_driver.TestName(), "Pcie.LinksAtMaxGenAndWidth/n1");
  EXPECT_EQ(no_driver.verdict, Verdict::kError);
  EXPECT_EQ(no_driver.findings[0].code, "unavailable");
  EXPECT_NE(no_driver.findings[0].message.find("no NVIDIA driver"), std::string::npos);
  Profile local = H100();
  local.name = "local";
  local.gpu->present = false;
  const auto result = test_support::JudgeRegisteredOnce(kSuite, kLinksAtMaxGenAndWidth, raw, local);
  EXPECT_EQ(result.verdict, Verdict::kSkip);
  EXPECT_NE(result.findings[0].message.find("has no GPUs"), std::string::npos);
}

// Rail NICs: a downtrained rail fails, a NIC that is not a rail (per the port listing) is not
// judged, and without a port listing every NIC is.
TEST(PcieNicLinksAtMaxGenAndWidth, ADowntrainedRailFailsAndOnlyRailsAreJudged) {
  Profile ib = H100();
  ib.infiniband = InfinibandExpectation{};
  ib.infiniband->present = true;
  ib.infiniband->link_layer = "InfiniBand";
  ib.infiniband->rail_nics_per_node = 1;
  const std::string kNics =
      "nic-pcie sysfs_root=/sys device_count=2\n"
      "nic name=mlx5_0 bus_id=0000:18:00.0 current_link_speed=\"32.0 GT/s PCIe\" current_link_width=16 "
      "max_link_speed=\"32.0 GT/s PCIe\" max_link_width=16\n"
      "nic name=mlx5_1 bus_id=0000:5e:00.0 current_link_speed=\"32.0 GT/s PCIe\" current_link_width=8 "
      "max_link_speed=\"32.0 GT/s PCIe\" max_link_width=16\n";
  const auto nics = test_support::Parsed(nic_pcie::ParseNicPcie(kNics, "nic-pcie.txt"));
  ASSERT_EQ(nics.nics.size(), 2u);
  const auto all = CheckNicLinksAtMaxGenAndWidth("n1", nics, nullptr, ib);
  ExpectOnlyFinding(all, "n1/mlx5_1", "n1: rail NIC mlx5_1 (0000:5e:00.0) PCIe link is x8, expected x16");
  ib_tools::IbPortReport ports;
  ports.ports.push_back(ib_tools::IbPort{});
  ports.ports[0].ca = "mlx5_0";
  ports.ports[0].link_layer = "InfiniBand";
  EXPECT_EQ(CheckNicLinksAtMaxGenAndWidth("n1", nics, &ports, ib).verdict, Verdict::kPass);
  EXPECT_EQ(NicLinksSkipReason(H100()), "profile h100-sxm-8 has no infiniband section, so it expects no rail NICs");
}

}  // namespace
}  // namespace gpuconform::pcie
