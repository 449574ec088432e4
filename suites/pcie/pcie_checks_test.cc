#include "suites/pcie/pcie_checks.h"

#include <gtest/gtest.h>

#include "probes/kernel_log/kernel_log_parse.h"
#include "probes/nic_pcie/nic_pcie_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "probes/pcie_aer/pcie_aer_parse.h"
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

// ---- AER: the published outputs' verdicts, each severity made to fail, and the snapshots ----

using pcie_aer::AerReport;

AerReport Counters(const std::string& text) { return test_support::Parsed(pcie_aer::ParseAer(text, "node1/aer.txt")); }

kernel_log::KernelLog LogOf(const std::filesystem::path& file) {
  return test_support::Parsed(kernel_log::ParseKernelLog(test_support::ReadFile(file), "node1/dmesg.txt"));
}

// node1's aer.txt without a device: only the kernel log speaks.
const AerReport kNoCounters{"node1/aer.txt", "sysfs", false, {}};

std::string AllMessages(const CheckResult& result) {
  std::string out;
  for (const auto& finding : result.findings) out += finding.code.str() + " " + finding.entity + ": " + finding.message + "\n";
  return out;
}

const Measurement* MeasurementNamed(const CheckResult& result, const std::string& name) {
  for (const auto& measurement : result.measurements) {
    if (measurement.name == name) return &measurement;
  }
  return nullptr;
}

std::string Gpu18(const std::string& file, const std::string& name, int value) {
  return "device address=0000:18:00.0 class=0x030200 vendor=0x10de parent=0000:17:01.0\n"
         "counter address=0000:18:00.0 file=" + file + " name=" + name + " value=" + std::to_string(value) + "\n";
}

// The GPU's link dropped (Surprise Down on its root port, then Xid 79): FAIL naming the GPU at
// 0000:02:00.0, fatal; the corrected replay-timer timeout before it on the same link is its
// warning sign, named in the failure and kept as a measurement of the root port.
TEST(PcieAerErrorsWithinLimits, ASurpriseDownFailsTheGpuBelowTheRootPort) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const auto log = LogOf(dir / "dmesg-tesla-gpu-replay-timeout-then-surprise-down-xid79.txt");
  const auto result = CheckAerErrorsWithinLimits("node1", kNoCounters, &log, {});
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u) << AllMessages(result);
  EXPECT_EQ(result.findings[0].code, "pcie-aer-fatal");
  EXPECT_EQ(result.findings[0].entity, "node1/0000:02:00.0");
  EXPECT_EQ(result.findings[0].message.rfind("node1: GPU 0000:02:00.0: the kernel log has a fatal AER report at "
                                             "line 6: port 0000:00:02.0: Surprise Down Error (Transaction Layer); "
                                             "the link from 0000:00:02.0 to 0000:02:00.0 dropped",
                                             0),
            0u)
      << AllMessages(result);
  EXPECT_NE(result.findings[0].message.find("dropped and the device is lost until a reset or reboot, after "
                                            "corrected Replay Timer Timeout (Data Link Layer) at line 2 on 0000:00:02.0"),
            std::string::npos)
      << AllMessages(result);
  EXPECT_NE(result.findings[0].message.find("reseat the GPU"), std::string::npos);
  const Measurement* precursor = MeasurementNamed(result, "node1/0000:00:02.0.aer_log_corrected");
  ASSERT_NE(precursor, nullptr);
  EXPECT_EQ(precursor->value, "1");
  // With the node's GPU facts, the GPU's index is named.
  const auto named = CheckAerErrorsWithinLimits("node1", kNoCounters, &log, {{"0000:02:00.0", "GPU 0"}});
  EXPECT_NE(named.findings.at(0).message.find("node1: GPU 0 (0000:02:00.0): "), std::string::npos);
}

// A ConnectX-5 logs Corrected, Transaction Layer, Advisory Non-Fatal (NonFatalErr) reports while
// its PF is reset (FLR). Its source calls them context-dependent: expected noise during a reset
// (WARN/INFO), a NIC failure outside one together with mlx5's "Fatal error" health line. There is
// no warn verdict, the log does not say whether a reset was intended, and a corrected
// transaction-layer advisory is not a signal-integrity error (the physical and data-link ones
// are, and they reach aer_dev_correctable): PASS, with the reports recorded as measurements so
// the history shows them. mlx5's health syndrome is not an AER fact and is not judged here.
TEST(PcieAerErrorsWithinLimits, CorrectedAdvisoryReportsDuringAResetPassRecorded) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const auto log = LogOf(dir / "dmesg-connectx5-mlx5-aer-corrected-advisory-nonfatal-during-flr.txt");
  const auto result = CheckAerErrorsWithinLimits("node1", kNoCounters, &log, {});
  EXPECT_EQ(result.verdict, Verdict::kPass) << AllMessages(result);
  ASSERT_NE(MeasurementNamed(result, "node1/0000:01:00.0.aer_log_corrected"), nullptr);
  EXPECT_EQ(MeasurementNamed(result, "node1/0000:01:00.0.aer_log_corrected")->value, "3");
  EXPECT_EQ(MeasurementNamed(result, "node1/0000:01:00.1.aer_log_corrected")->value, "1");
}

// lspci's CESta on an H100: RxErr+ BadTLP+ Timeout+, latched and masked from the kernel. Its
// source says WARN, or FAIL under a strict zero-correctable policy. Under the default limit (100
// since boot) three flags ("at least once" each) PASS, recorded as measurements; a strict
// policy (limit 0) FAILS naming the GPU.
TEST(PcieAerErrorsWithinLimits, LatchedCorrectableFlagsPassByDefaultAndFailAStrictPolicy) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const auto counters = test_support::Parsed(pcie_aer::ParseAer(
      test_support::ReadFile(dir / "lspci-vvv-h100-sxm-19-00.0-cesta-rxerr-badtlp-timeout.txt"), "node1/lspci.txt"));
  const auto result = CheckAerErrorsWithinLimits("node1", counters, nullptr, {});
  EXPECT_EQ(result.verdict, Verdict::kPass) << AllMessages(result);
  const Measurement* rx = MeasurementNamed(result, "node1/0000:19:00.0.aer_correctable_rxerr");
  ASSERT_NE(rx, nullptr);
  EXPECT_EQ(rx->value, "1");
  EXPECT_EQ(rx->unit, "errors");
  EXPECT_EQ(rx->threshold, "<= 100");
  EXPECT_NE(rx->source.find("at least once"), std::string::npos);
  EXPECT_EQ(MeasurementNamed(result, "node1/0000:19:00.0.aer_correctable")->value, "3");
  EXPECT_EQ(MeasurementNamed(result, "node1/0000:19:00.0.aer_nonfatal"), nullptr) << "zeros are not recorded";
  const auto strict = CheckAerErrorsWithinLimits("node1", counters, nullptr, {}, AerLimits{0, "strict"});
  ASSERT_EQ(strict.verdict, Verdict::kFail);
  EXPECT_EQ(strict.findings.at(0).code, "pcie-aer-correctable");
  EXPECT_NE(strict.findings[0].message.find("node1: GPU 0000:19:00.0: correctable status flags set: BadTLP RxErr "
                                            "Timeout (lspci: each at least once) > 0"),
            std::string::npos)
      << AllMessages(strict);
}

// A desktop GPU's aer_dev_correctable, every class 0: PASS, nothing recorded.
TEST(PcieAerErrorsWithinLimits, AnAllZeroCorrectableFilePasses) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "pcie-aer");
  const auto counters = test_support::Parsed(pcie_aer::ParseAer(
      test_support::ReadFile(dir / "sysfs-aer-dev-correctable-drm-card1-all-zero.txt"), "node1/aer.txt"));
  const auto result = CheckAerErrorsWithinLimits("node1", counters, nullptr, {});
  EXPECT_EQ(result.verdict, Verdict::kPass) << AllMessages(result);
  EXPECT_TRUE(result.measurements.empty());
}

TEST(PcieAerErrorsWithinLimits, TheProfileCountLimitOfCorrectableErrorsIsUsedWithItsSource) {
  EXPECT_EQ(AerLimitsOf(LinkCounterRates{}).correctable, kDefaultCorrectableLimit);
  LinkCounterRates rates;
  rates.count_limits = {{"aer_correctable", 0}};
  rates.source = "strict";
  const AerLimits limits = AerLimitsOf(rates);
  EXPECT_EQ(limits.correctable, 0u);
  EXPECT_EQ(limits.source, "strict");
}

TEST(PcieAerErrorsWithinLimits, EachSeverityFailsWithItsCode) {
  const auto fatal = CheckAerErrorsWithinLimits("node1", Counters(Gpu18("aer_dev_fatal", "DLP", 1)), nullptr,
                                                {{"0000:18:00.0", "GPU 0"}});
  ExpectOnlyFinding(fatal, "node1/0000:18:00.0", "node1: GPU 0 (0000:18:00.0): fatal 1 (DLP 1) > 0: a fatal");
  EXPECT_EQ(fatal.findings[0].code, "pcie-aer-fatal");
  const auto nonfatal = CheckAerErrorsWithinLimits("node1", Counters(Gpu18("aer_dev_nonfatal", "CmpltTO", 2)), nullptr, {});
  ASSERT_EQ(nonfatal.verdict, Verdict::kFail);
  EXPECT_EQ(nonfatal.findings.at(0).code, "pcie-aer-nonfatal");
  EXPECT_NE(nonfatal.findings[0].message.find("non-fatal 2 (CmpltTO 2) > 0"), std::string::npos);
  const Measurement* measured = MeasurementNamed(nonfatal, "node1/0000:18:00.0.aer_nonfatal_cmpltto");
  ASSERT_NE(measured, nullptr);
  EXPECT_EQ(measured->threshold, "<= 0");
  EXPECT_EQ(measured->source, kAerLimitSource);
  const auto correctable = CheckAerErrorsWithinLimits("node1", Counters(Gpu18("aer_dev_correctable", "RxErr", 101)), nullptr, {});
  ASSERT_EQ(correctable.verdict, Verdict::kFail);
  EXPECT_EQ(correctable.findings.at(0).code, "pcie-aer-correctable");
  const auto at_limit = CheckAerErrorsWithinLimits("node1", Counters(Gpu18("aer_dev_correctable", "RxErr", 100)), nullptr, {});
  EXPECT_EQ(at_limit.verdict, Verdict::kPass) << AllMessages(at_limit);
  EXPECT_EQ(MeasurementNamed(at_limit, "node1/0000:18:00.0.aer_correctable_rxerr")->value, "100");
}

// Rates since the node's previous run in the history (harness/core/counter_history.h): 80 correctable
// errors are within the count limit 100, but +60 in 4 h is 15 an hour.
TEST(PcieAerErrorsWithinLimits, CorrectableErrorsRisingFasterThanTheRateFailWithinTheirCount) {
  const auto counters = Counters(Gpu18("aer_dev_correctable", "RxErr", 80));
  NodeCounterReadings previous;
  previous.by_check["Pcie.AerErrorsWithinLimits"] = {
      "run-a", "2026-12-01T08:00:00Z", 4, {{"0000:18:00.0.aer_correctable", {20, false}}}};
  const auto rising =
      CheckAerErrorsWithinLimits("node1", counters, nullptr, {{"0000:18:00.0", "GPU 0"}}, {}, {}, &previous);
  ExpectOnlyFinding(rising, "node1/0000:18:00.0",
                    "node1: GPU 0 (0000:18:00.0): correctable errors rising: +60 in 4.0 h (15.00/h) since run run-a "
                    "(2026-12-01T08:00:00Z) (15.00/h > 10/h; now 80)");
  EXPECT_EQ(rising.findings[0].code, "pcie-aer-error-rate");
  EXPECT_EQ(MeasurementNamed(rising, "node1/0000:18:00.0.aer_correctable_per_hour")->value, "15.00");
  EXPECT_EQ(CheckAerErrorsWithinLimits("node1", counters, nullptr, {}).verdict, Verdict::kPass)
      << "without a history, the count alone";
  LinkCounterRates looser;
  looser.pcie_correctable_per_hour = 20;
  EXPECT_EQ(CheckAerErrorsWithinLimits("node1", counters, nullptr, {}, {}, looser, &previous).verdict, Verdict::kPass);
}

TEST(PcieAerErrorsWithinLimits, ABridgeNamesTheDevicesBelowIt) {
  const auto result = CheckAerErrorsWithinLimits(
      "node1",
      Counters("device address=0000:17:01.0 class=0x060400 vendor=0x1000\n"
               "counter address=0000:17:01.0 file=aer_dev_nonfatal name=SDES value=1\n"
               "device address=0000:18:00.0 class=0x030200 vendor=0x10de parent=0000:17:01.0\n"),
      nullptr, {{"0000:18:00.0", "GPU 0"}});
  ExpectOnlyFinding(result, "node1/0000:17:01.0", "node1: bridge 0000:17:01.0: non-fatal 1 (SDES 1) > 0");
  EXPECT_NE(result.findings[0].message.find("the device below it (GPU 0 (0000:18:00.0))"), std::string::npos)
      << AllMessages(result);
}

TEST(PcieAerErrorsWithinLimits, NoAerAnywhereSkipsAndAProfileWithoutGpusOrRailsSkips) {
  const auto none = CheckAerErrorsWithinLimits("node1", Counters("aer sysfs_root=/sys pci_device_count=3 device_count=0\n"),
                                               nullptr, {});
  ASSERT_EQ(none.verdict, Verdict::kSkip);
  EXPECT_EQ(none.findings.at(0).message.rfind("no PCIe AER counters in sysfs on node1 (node1/aer.txt): the kernel "
                                              "exposes them only for devices with AER",
                                              0),
            0u)
      << none.findings[0].message;
  Profile local;
  local.name = "local";
  EXPECT_NE(AerSkipReason(local).value_or("").find("profile local has no GPUs and no InfiniBand"), std::string::npos);
  EXPECT_FALSE(AerSkipReason(H100()));
}

// Through the registered suite on snapshots: the healthy node's counters are all zero, the
// copy with GPU 3's errors fails naming it (its index from the snapshot's GPU listing).
TEST(PcieAerErrorsWithinLimits, SnapshotsOfAHealthyNodeAndOfAGpuWithErrors) {
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  auto judged = [&](const std::string& snapshot) {
    return test_support::CheckOnFixture(kSuite, kAerErrorsWithinLimits, snapshot, profile);
  };
  const CheckResult healthy = judged("topo-h100-healthy");
  EXPECT_EQ(healthy.verdict, Verdict::kPass) << AllMessages(healthy);
  EXPECT_TRUE(healthy.measurements.empty());
  const CheckResult errors = judged("topo-h100-pcie-aer-errors");
  ASSERT_EQ(errors.verdict, Verdict::kFail);
  ASSERT_EQ(errors.findings.size(), 1u) << AllMessages(errors);
  EXPECT_EQ(errors.findings[0].code, "pcie-aer-nonfatal");
  EXPECT_EQ(errors.findings[0].entity, "hgx-node-01/0000:5d:00.0");
  EXPECT_NE(errors.findings[0].message.find("hgx-node-01: GPU 3 (0000:5d:00.0): non-fatal 2 (CmpltTO 2) > 0; "
                                            "correctable 412 (BadTLP 37, RxErr 361, Timeout 14) > 100"),
            std::string::npos)
      << AllMessages(errors);
}

}  // namespace
}  // namespace gpuconform::pcie
