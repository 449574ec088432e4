#include "suites/infiniband/infiniband_checks.h"

#include <gtest/gtest.h>

#include "harness/util/text_util.h"
#include "probes/ib_counters/ib_counters_parse.h"
#include "probes/ib_tools/ib_tools_parse.h"
#include "suites/nvswitch/topo_test_support.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::infiniband {

using namespace gpuconform::ib_tools;
namespace {

using topo_test::BuiltinProfile;
using topo_test::DataFiles;
using topo_test::ReadFile;

std::string Messages(const CheckResult& result) {
  std::string out;
  for (const auto& finding : result.findings) out += "[" + finding.code.str() + "] " + finding.message + "\n";
  return out;
}

bool AnyMessageContains(const CheckResult& result, const std::string& needle) {
  return Messages(result).find(needle) != std::string::npos;
}

Result<IbPortReport> Real(const std::filesystem::path& dir, const std::string& name) {
  return ParseIbPorts(ReadFile(dir / (name + ".txt")), name);
}

// The same, and a listing made here, parsed as the checks receive them.
IbPortReport Ports(const std::filesystem::path& dir, const std::string& name) {
  return test_support::Parsed(Real(dir, name));
}
IbPortReport Listing(const std::string& text) { return test_support::Parsed(ParseIbPorts(text, "o")); }

// The RoCE twin of h100-sxm-8: eight 400 Gb/s rails with link layer Ethernet.
Profile RoceProfile() {
  Profile p = BuiltinProfile("h100-sxm-8");
  p.name = "h100-roce";
  p.infiniband->link_layer = "Ethernet";
  return p;
}

std::string Ibstat(const std::vector<std::tuple<std::string, std::string, std::string, int, std::string>>& ports) {
  std::string text;
  for (const auto& [ca, state, phys, rate, layer] : ports) {
    text += "CA '" + ca + "'\n\tCA type: MT4129\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: " + state +
            "\n\t\tPhysical state: " + phys + "\n\t\tRate: " + std::to_string(rate) +
            "\n\t\tBase lid: 1\n\t\tLink layer: " + layer + "\n";
  }
  return text;
}

std::string EightRails(const std::string& state5 = "Active", const std::string& phys5 = "LinkUp", int rate5 = 400) {
  std::vector<std::tuple<std::string, std::string, std::string, int, std::string>> ports;
  for (int i = 0; i < 8; ++i) {
    ports.emplace_back("mlx5_" + std::to_string(i), i == 5 ? state5 : "Active", i == 5 ? phys5 : "LinkUp",
                       i == 5 ? rate5 : 400, "InfiniBand");
  }
  ports.emplace_back("mlx5_8", "Active", "LinkUp", 100, "Ethernet");
  return Ibstat(ports);
}

// --- parsers -----------------------------------------------------------------------------

TEST(InfinibandParse, ReadsEveryRelevantRealListingAndRejectsTheOthersCleanly) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-status");
  struct Expected {
    std::string file;
    std::optional<PortListingFormat> format;  // nullopt: not a port listing, must be rejected
    std::size_t ports;
  };
  const std::vector<Expected> expected = {
      {"aben20807-cnode3-ib-fullmesh-ping-rail-isolated", std::nullopt, 0},
      {"aben20807-cnode3-ibdev2netdev", PortListingFormat::kIbdev2netdev, 11},
      {"azure-nhc-ib6-link-flap-syslog", std::nullopt, 0},
      {"gpud-a100-hdr-ibstat-ibpanic", PortListingFormat::kIbstat, 8},
      {"gpud-a100-hdr-ibstatus-all-active", PortListingFormat::kIbstatus, 9},
      {"gpud-h100-cx7-ib-ndr-8up-eth-3down", PortListingFormat::kIbstat, 12},
      {"gpud-h100-cx7-ib-ndr-all-active-bf3", PortListingFormat::kIbstat, 9},
      {"gpud-h100-cx7-roce-2-ports-down", PortListingFormat::kIbstat, 12},
      {"gpud-h100-cx7-roce-polling-port", PortListingFormat::kIbstat, 12},
      {"imbue-4-h100-ibdev2netdev-ib-down-ipoib", PortListingFormat::kIbdev2netdev, 12},
      {"koordinator-node1-cx5-ibstat-one-port-down", PortListingFormat::kIbstat, 3},
      {"koordinator-node2-cx5-ibstat-all-down", PortListingFormat::kIbstat, 3},
  };
  ASSERT_EQ(DataFiles(dir).size(), expected.size()) << "a new file in realdata/ib-status needs a row here";
  for (const auto& e : expected) {
    auto report = Real(dir, e.file);
    if (!e.format) {
      ASSERT_FALSE(report) << e.file;
      EXPECT_EQ(report.error().rfind(e.file + ":", 0), 0u) << report.error();
      continue;
    }
    ASSERT_TRUE(report) << report.error();
    EXPECT_EQ(report->format, *e.format) << e.file;
    EXPECT_EQ(report->ports.size(), e.ports) << e.file;
  }
  auto ibstatus = Real(dir, "gpud-a100-hdr-ibstatus-all-active");
  EXPECT_EQ(ibstatus->ports[0].state, "Active");
  EXPECT_EQ(ibstatus->ports[0].physical_state, "LinkUp");
  EXPECT_EQ(ibstatus->ports[0].rate_gbit_per_s, 200);
  auto annotated = Real(dir, "koordinator-node1-cx5-ibstat-one-port-down");
  EXPECT_EQ(annotated->ports[2].ca, "mlx5_2");  // "CA 'mlx5_2'      //VF"
  auto panic = Real(dir, "gpud-a100-hdr-ibstat-ibpanic");
  EXPECT_NE(panic->tool_error.find("mlx5_8"), std::string::npos);
  auto imbue = Real(dir, "imbue-4-h100-ibdev2netdev-ib-down-ipoib");
  EXPECT_EQ(imbue->ports[0].netdev_state, "Down");
  EXPECT_EQ(imbue->ports[0].link_layer, "InfiniBand");
  EXPECT_EQ(imbue->ports[1].link_layer, "Ethernet");
}

TEST(InfinibandParse, ReadsIbvDevinfoVerboseWithRateFromWidthTimesSpeed) {
  const auto report = test_support::Parsed(
      ParseIbPorts(ReadFile(topo_test::FixtureDir("topo-h100-ib-port-polling/nodes/hgx-node-01/ibv_devinfo.txt")),
                   "ibv_devinfo.txt"));
  EXPECT_EQ(report.format, PortListingFormat::kIbvDevinfo);
  ASSERT_EQ(report.ports.size(), 9u);
  EXPECT_EQ(report.ports[0].rate_gbit_per_s, 400);
  EXPECT_EQ(report.ports[0].ca_type, "MT4129");
  EXPECT_EQ(report.ports[2].state, "Down");
  EXPECT_EQ(report.ports[2].physical_state, "Polling");
  EXPECT_EQ(report.ports[8].link_layer, "Ethernet");
}

TEST(InfinibandParse, TruncatedPortsAndGarbageAreErrorsNamingOriginAndLine) {
  const std::string full = EightRails();
  test_support::ExpectErrorStartingWith(ParseIbPorts(full.substr(0, full.find("Link layer")), "n1/ibstat.txt"),
                                        "n1/ibstat.txt:4: mlx5_0 port 1 has no Link layer");
  test_support::ExpectErrorStartingWith(ParseIbPorts("CA 'mlx5_0'\n\tPort 1:\n\t\tRate: fast\n", "o"), "o:3: ");
  EXPECT_FALSE(ParseIbPorts("", "o"));
  EXPECT_FALSE(ParseIbPorts("mlx5_0 port 1 ==> ib0\n", "o"));
}

TEST(InfinibandParse, SurvivesEveryTruncationOfRealFilesAndRandomBytes) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-status");
  for (const auto& file : DataFiles(dir)) topo_test::SurvivesTruncationAndNoise(ReadFile(file), ParseIbPorts);
  topo_test::SurvivesTruncationAndNoise(
      ReadFile(topo_test::FixtureDir("topo-h100-healthy/nodes/hgx-node-01/ibv_devinfo.txt")),
      ParseIbPorts);
  SUCCEED() << "no crash";
}

// --- verdicts on realdata ----------------------------------------------------------------

TEST(InfinibandRealdata, VerdictsAgreeWithSources) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-status");
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  const Profile a100 = BuiltinProfile("a100-sxm-8");
  const Profile roce = RoceProfile();
  struct Case {
    std::string file;
    const Profile* profile;
    Verdict rails;
    Verdict ports;
    std::string needle;  // in the ports (or else the rails) messages
  };
  const std::vector<Case> cases = {
      // ibdev2netdev: rails counted from the ib* netdevs; its (Down) is the netdev's, never a port failure.
      {"aben20807-cnode3-ibdev2netdev", &h100, Verdict::kPass, Verdict::kError, "not of the port"},
      {"imbue-4-h100-ibdev2netdev-ib-down-ipoib", &h100, Verdict::kPass, Verdict::kError, "not of the port"},
      {"gpud-a100-hdr-ibstat-ibpanic", &h100, Verdict::kPass, Verdict::kFail, "Rate 200 Gb/s HDR, expected 400 Gb/s NDR"},
      {"gpud-a100-hdr-ibstat-ibpanic", &a100, Verdict::kPass, Verdict::kError, "ibpanic"},
      {"gpud-a100-hdr-ibstatus-all-active", &a100, Verdict::kPass, Verdict::kPass, ""},
      {"gpud-a100-hdr-ibstatus-all-active", &h100, Verdict::kPass, Verdict::kFail, "expected 400 Gb/s"},
      {"gpud-h100-cx7-ib-ndr-8up-eth-3down", &h100, Verdict::kPass, Verdict::kPass, ""},
      {"gpud-h100-cx7-ib-ndr-all-active-bf3", &h100, Verdict::kPass, Verdict::kPass, ""},
      {"gpud-h100-cx7-roce-2-ports-down", &roce, Verdict::kPass, Verdict::kFail,
       "mlx5_5 port 1 is State Down, Physical state Disabled"},
      {"gpud-h100-cx7-roce-2-ports-down", &h100, Verdict::kFail, Verdict::kError, "RoCE instead of InfiniBand"},
      {"gpud-h100-cx7-roce-polling-port", &roce, Verdict::kPass, Verdict::kFail,
       "mlx5_11 port 1 is State Down, Physical state Polling"},
      {"koordinator-node1-cx5-ibstat-one-port-down", &h100, Verdict::kFail, Verdict::kError, "0 InfiniBand rail ports"},
      {"koordinator-node2-cx5-ibstat-all-down", &h100, Verdict::kFail, Verdict::kError, "0 InfiniBand rail ports"},
  };
  for (const auto& c : cases) {
    const auto ports = Ports(dir, c.file);
    const auto rails = CheckRailNicsPresent("n1", ports, *c.profile);
    const auto state = CheckPortsActiveAtRate("n1", ports, *c.profile);
    EXPECT_EQ(rails.verdict, c.rails) << c.file << " / " << c.profile->name << "\n" << Messages(rails);
    EXPECT_EQ(state.verdict, c.ports) << c.file << " / " << c.profile->name << "\n" << Messages(state);
    if (!c.needle.empty()) {
      EXPECT_TRUE(AnyMessageContains(state, c.needle) || AnyMessageContains(rails, c.needle))
          << c.file << ": '" << c.needle << "'\n" << Messages(rails) << Messages(state);
    }
  }
  // 2 of 8 RoCE rails down: both named, and the ConnectX-6 Dx front-end ports are not judged.
  const auto two_down = CheckPortsActiveAtRate("n1", Ports(dir, "gpud-h100-cx7-roce-2-ports-down"), roce);
  ASSERT_EQ(two_down.findings.size(), 2u) << Messages(two_down);
  EXPECT_EQ(two_down.findings[0].entity, "n1/mlx5_11/port1");
  EXPECT_EQ(two_down.findings[1].entity, "n1/mlx5_5/port1");
  // The three Down Ethernet ports beside 8 healthy NDR rails are not counted, and say so.
  const auto eth = CheckRailNicsPresent("n1", Ports(dir, "gpud-h100-cx7-ib-ndr-8up-eth-3down"), h100);
  EXPECT_EQ(eth.measurements[0].value, "8");
}

TEST(InfinibandRealdata, GpuLocalRailNicVerdictsAgreeWithTopologySources) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-topo");
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  const Profile a100 = BuiltinProfile("a100-sxm-8");
  const IbPortReport* no_ports = nullptr;
  auto topo = [&](const std::string& name) {
    return test_support::Parsed(nvidia_smi::ParseTopoMatrix(ReadFile(dir / (name + ".txt")), name));
  };

  const auto no_nic = CheckGpuHasLocalRailNic("n1", topo("gcp-a3-h100-8gpu-nv18-no-nic"), no_ports, h100);
  ASSERT_EQ(no_nic.verdict, Verdict::kFail);
  EXPECT_NE(no_nic.findings[0].message.find("shows no NIC at all"), std::string::npos);

  const auto princeton = CheckGpuHasLocalRailNic("n1", topo("princeton-della-pli-h100-6nic"), no_ports, h100);
  ASSERT_EQ(princeton.verdict, Verdict::kFail);
  std::vector<std::string> entities;
  for (const auto& finding : princeton.findings) entities.push_back(finding.entity);
  EXPECT_EQ(entities, (std::vector<std::string>{"n1/GPU1", "n1/GPU2", "n1/GPU5", "n1/GPU7"}));
  EXPECT_NE(princeton.findings[0].message.find("nearest rail NIC NIC0 (mlx5_0) at NODE"), std::string::npos)
      << princeton.findings[0].message;

  const auto h800 = CheckGpuHasLocalRailNic("n1", topo("llm-action-h800-nv8-4nic-truncated-cols"), no_ports, h100);
  ASSERT_EQ(h800.verdict, Verdict::kFail);
  EXPECT_EQ(h800.findings.size(), 5u) << Messages(h800);

  EXPECT_EQ(CheckGpuHasLocalRailNic("n1", topo("xuesongtap-4x-a10-sys-no-nvlink"), no_ports, h100).verdict,
            Verdict::kFail);
  EXPECT_EQ(CheckGpuHasLocalRailNic("n1", topo("xuesongtap-8x-a100-nv12-17nic"), no_ports, a100).verdict,
            Verdict::kPass);
}

// --- each check fails, errors and skips where it should ----------------------------------

TEST(InfinibandRailNicsPresent, MissingRailFailsAndEthernetIsNotCounted) {
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  EXPECT_EQ(CheckRailNicsPresent("n1", Listing(EightRails()), h100).verdict, Verdict::kPass);
  std::string seven = EightRails();
  seven = seven.substr(seven.find("CA 'mlx5_1'"));
  const auto result = CheckRailNicsPresent("n1", Listing(seven), h100);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].message.rfind("n1: 7 InfiniBand rail ports (mlx5_1", 0), 0u) << result.findings[0].message;
  EXPECT_NE(result.findings[0].message.find("not counted: 1 port(s) with link layer Ethernet (mlx5_8)"),
            std::string::npos);
}

TEST(InfinibandRailNicsPresent, TooFewNicsInTopoMatrixFailWithoutAPortListing) {
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  const std::string missing = "n1/ibstat.txt: ibstat: command not found";
  const auto error = CheckRailNicsWithoutPortListing("n1", missing, h100, std::nullopt);
  EXPECT_EQ(error.verdict, Verdict::kError);
  EXPECT_EQ(error.findings[0].code, "unavailable");
  EXPECT_EQ(error.findings[0].message, missing);
  EXPECT_EQ(CheckRailNicsWithoutPortListing("n1", missing, h100, 9).verdict, Verdict::kError)
      << "topo -m does not say which NICs are rails: enough NICs in all proves nothing";
  const auto result = CheckRailNicsWithoutPortListing("n1", missing, h100, 6);
  test_support::ExpectOnlyFinding(result, "n1", "n1: 6 NIC(s) in all in nvidia-smi topo -m, expected 8 InfiniBand");
  EXPECT_EQ(result.findings[0].code, ReasonCode("rail-count"));
  EXPECT_NE(result.findings[0].message.find("ibstat: command not found"), std::string::npos);
}

TEST(InfinibandPortsActiveAtRate, DownPollingAndSlowPortsFailNamingNicAndPort) {
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  EXPECT_EQ(CheckPortsActiveAtRate("n1", Listing(EightRails()), h100).verdict, Verdict::kPass);
  const auto polling = CheckPortsActiveAtRate("n1", Listing(EightRails("Down", "Polling", 40)), h100);
  ASSERT_EQ(polling.verdict, Verdict::kFail);
  ASSERT_EQ(polling.findings.size(), 1u);
  EXPECT_EQ(polling.findings[0].entity, "n1/mlx5_5/port1");
  EXPECT_NE(polling.findings[0].message.find("sees no peer"), std::string::npos);
  const auto armed = CheckPortsActiveAtRate("n1", Listing(EightRails("Armed", "LinkUp")), h100);
  EXPECT_NE(armed.findings[0].message.find("subnet manager"), std::string::npos);
  const auto slow = CheckPortsActiveAtRate("n1", Listing(EightRails("Active", "LinkUp", 200)), h100);
  ASSERT_EQ(slow.verdict, Verdict::kFail);
  EXPECT_EQ(slow.findings[0].message.rfind("n1: mlx5_5 port 1 Rate 200 Gb/s HDR, expected 400 Gb/s NDR", 0), 0u)
      << slow.findings[0].message;
}

TEST(InfinibandGpuHasLocalRailNic, OnlyRailNicsCountWhereTheLegendNamesThem) {
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  // GPU0's only PIX NIC is the Ethernet mlx5_8: not a rail.
  const std::string topo =
      "\tGPU0\tNIC0\tNIC1\tCPU Affinity\nGPU0\t X \tNODE\tPIX\t0-1\nNIC0\tNODE\t X \tNODE\nNIC1\tPIX\tNODE\t X \n\n"
      "NIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_8\n";
  const auto matrix = test_support::Parsed(nvidia_smi::ParseTopoMatrix(topo, "o"));
  const auto rails = Listing(EightRails());
  const auto result = CheckGpuHasLocalRailNic("n1", matrix, &rails, h100);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(result.findings[0].message.find("nearest rail NIC NIC0 (mlx5_0) at NODE"), std::string::npos)
      << result.findings[0].message;
  // Without a port listing every NIC counts, so the same matrix passes.
  EXPECT_EQ(CheckGpuHasLocalRailNic("n1", matrix, nullptr, h100).verdict, Verdict::kPass);
}

// The suite skips every check before reading anything where the profile has no rails, and
// GpuHasLocalRailNic where it does not ask for a rail NIC per GPU.
TEST(InfinibandChecks, SkipWhereTheProfileHasNoRailsOrDoesNotAsk) {
  const Profile local = BuiltinProfile("local");
  const ClusterRaw nothing = test_support::RawOf({{"n1", {}}});
  for (const char* check : {kRailNicsPresent, kPortsActiveAtRate, kGpuHasLocalRailNic}) {
    const auto result = test_support::JudgeRegisteredOnce(kSuite, check, nothing, local);
    EXPECT_EQ(result.verdict, Verdict::kSkip) << check;
    EXPECT_NE(result.findings[0].message.find("infiniband.present: false"), std::string::npos);
  }
  Profile relaxed = BuiltinProfile("h100-sxm-8");
  relaxed.infiniband->gpu_local_nic_required = false;
  const auto skipped = test_support::JudgeRegisteredOnce(kSuite, kGpuHasLocalRailNic, nothing, relaxed);
  EXPECT_EQ(skipped.verdict, Verdict::kSkip);
  EXPECT_NE(skipped.findings[0].message.find("gpu_local_nic_required is false"), std::string::npos);
}

// A node without any port listing: each check that needs it errs, naming the file; the rail
// count is judged from the topology matrix where that has too few NICs.
TEST(InfinibandChecks, UnreadableListingIsAnError) {
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  const ClusterRaw nothing = test_support::RawOf({{"n1", {{"ibstat", {ProbeStatus::kAbsent, "", "", ""}}}}});
  const auto rails = test_support::JudgeRegisteredOnce(kSuite, kRailNicsPresent, nothing, h100);
  EXPECT_EQ(rails.verdict, Verdict::kError);
  EXPECT_EQ(rails.findings[0].code, "unavailable");
  const auto result = test_support::JudgeRegisteredOnce(kSuite, kPortsActiveAtRate, nothing, h100);
  EXPECT_EQ(result.TestName(), "InfiniBand.PortsActiveAtRate/n1");
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_NE(result.findings[0].message.find("ibstat.txt"), std::string::npos) << result.findings[0].message;
  const ClusterRaw topo_only = test_support::RawOf(
      {{"n1",
        {{"nvidia-smi-topo-m",
          test_support::OkOutput("\tGPU0\tNIC0\tCPU Affinity\nGPU0\t X \tPIX\t0-1\nNIC0\tPIX\t X \n",
                                 "n1/nvidia-smi-topo-m.txt")}}}});
  const auto few = test_support::JudgeRegisteredOnce(kSuite, kRailNicsPresent, topo_only, h100);
  test_support::ExpectOnlyFinding(few, "n1", "n1: 1 NIC(s) in all in nvidia-smi topo -m, expected 8 InfiniBand");
}

// ---- port error counters: the published outputs' verdicts, and each kind made to fail ----

ib_counters::CounterReport Counters(const std::string& text) {
  auto report = ib_counters::ParseIbCounters(text, "node1/ib-counters.txt");
  EXPECT_TRUE(report) << report.error();
  return report ? *report : ib_counters::CounterReport{};
}

TEST(PortErrorCounters, AHealthyHcaConforms) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-counters");
  const auto result = CheckPortErrorCounters("node1", Counters(ReadFile(dir / "perfquery-x-edr-hca-lid133-healthy.txt")));
  EXPECT_EQ(result.verdict, Verdict::kPass) << Messages(result);
}

TEST(PortErrorCounters, LinkDownsAndDiscardsAreNamedButNotBlamedOnTheCable) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-counters");
  const auto result = CheckPortErrorCounters(
      "sw1", Counters(ReadFile(dir / "perfquery-x-edr-switch-lid2052-port1-linkdowned-xmitdiscards.txt")));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_TRUE(AnyMessageContains(result, "[ib-link-downed] sw1: LID 2052 port 1: link_downed 1 > 0"));
  EXPECT_TRUE(AnyMessageContains(result, "[ib-port-discards] sw1: LID 2052 port 1: port_xmit_discards 20046 > 100"));
  EXPECT_TRUE(AnyMessageContains(result, "with no signal errors (not the cable)"));
  EXPECT_FALSE(AnyMessageContains(result, "[ib-link-errors]")) << Messages(result);
}

TEST(PortErrorCounters, SaturatedSymbolErrorsAreAtLeastValuesOnTheMarginalPorts) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-counters");
  const std::string quoted =
      ReadFile(dir / "ibqueryerrors-sx6036-fdr-ports5-7-symbolerr-saturated-linkdowned-email-quoted.txt");
  std::string text;
  for (const auto line : SplitLines(quoted)) {
    text += std::string(line.size() >= 2 ? line.substr(2) : std::string_view()) + "\n";  // the e-mail's "> "
  }
  const auto result = CheckPortErrorCounters("fabric", Counters(text));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  for (const std::string port : {"5", "7"}) {
    EXPECT_TRUE(AnyMessageContains(result, "GUID 0x2c903006e29b0 port " + port +
                                               ": symbol_error at least 65535 > 10, link_error_recovery"))
        << Messages(result);
  }
  EXPECT_TRUE(AnyMessageContains(result, "[ib-link-downed] fabric: MF0;ys23ib4:SX6036/U1 GUID 0x2c903006e29b0 port 6"));
  EXPECT_TRUE(AnyMessageContains(result, "[ib-port-discards] fabric: dl380g7 mlx4_0 GUID 0x7cfe900300179b31 port 1: "
                                         "VL15_dropped 14 > 0"));
  // PortXmitWait alone (saturated on several ports) is load, never a fault.
  EXPECT_FALSE(AnyMessageContains(result, "server mlx4_0")) << Messages(result);
  EXPECT_FALSE(AnyMessageContains(result, "port ALL"));
}

TEST(PortErrorCounters, SignalErrorsAboveTheLimitAreHardwareNamingThePort) {
  const auto result = CheckPortErrorCounters(
      "node3", Counters("counter device=mlx5_4 port=1 name=symbol_error value=11\n"
                        "counter device=mlx5_4 port=1 name=port_xmit_wait value=99\n"
                        "counter device=mlx5_5 port=1 name=symbol_error value=10\n"));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u) << Messages(result);
  EXPECT_EQ(result.findings[0].code, "ib-link-errors");
  EXPECT_EQ(result.findings[0].entity, "node3/mlx5_4/port1");
  EXPECT_EQ(CheckPortErrorCounters("node3", Counters("ib-counters sysfs_root=/sys device_count=0\n")).verdict,
            Verdict::kSkip);
}

// The profile's link_counters.count_limits replaces a counter's default, with the profile's source;
// every counter the check judges by count is a name the profile accepts.
TEST(PortErrorCounters, AProfileCountLimitReplacesTheDefaultWithItsSource) {
  const auto counters = Counters("counter device=mlx5_4 port=1 name=symbol_error value=6\n");
  EXPECT_EQ(CheckPortErrorCounters("node3", counters).verdict, Verdict::kPass) << "6 is within the default 10";
  LinkCounterRates strict;
  strict.count_limits = {{"symbol_error", 5}};
  strict.source = "our fleet's acceptance policy";
  const auto result = CheckPortErrorCounters("node3", counters, strict);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(result.findings[0].message.find("symbol_error 6 > 5"), std::string::npos) << Messages(result);
  ASSERT_FALSE(result.measurements.empty());
  EXPECT_EQ(result.measurements[0].threshold, "<= 5");
  EXPECT_EQ(result.measurements[0].source, "our fleet's acceptance policy");

  std::string yaml = "name: n\nlink_counters:\n  source: s\n  count_limits:\n";
  for (const auto& info : ib_counters::KnownCounters()) {
    if (info.kind != ib_counters::CounterKind::kCongestion) yaml += "    " + info.name + ": 1\n";
  }
  const auto profile = ParseProfile(yaml, "t.yaml");
  ASSERT_TRUE(profile) << profile.error();
  EXPECT_EQ(profile->link_counters.count_limits.size(), ib_counters::KnownCounters().size() - 1);
}

// Rates since the node's previous run in the history (harness/core/counter_history.h).
NodeCounterReadings PreviousReading(double hours_before, std::map<std::string, CheckCounterReadings::Reading> counters) {
  NodeCounterReadings node;
  node.by_check["InfiniBand.PortErrorCountersWithinLimits"] = {"run-a", "2026-12-01T09:12:44", hours_before,
                                                              std::move(counters)};
  return node;
}

TEST(PortErrorCounterRates, ACounterWithinItsCountButRisingFastFailsNamingTheLink) {
  const auto report = Counters("counter device=mlx5_2 port=1 name=symbol_error value=6\n"
                               "counter device=mlx5_3 port=1 name=symbol_error value=2\n");
  // Alone, 6 and 2 are within the count limit 10.
  const CheckResult alone = CheckPortErrorCounters("node3", report);
  EXPECT_EQ(alone.verdict, Verdict::kPass) << Messages(alone);
  // mlx5_2 was 0 three hours ago (absent: read 0); mlx5_3 was already 1: +1 in 3 h is slow.
  const auto previous = PreviousReading(3, {{"mlx5_3/port1.symbol_error", {1, false}}});
  const CheckResult rising = CheckPortErrorCounters("node3", report, LinkCounterRates{}, &previous);
  ASSERT_EQ(rising.verdict, Verdict::kFail);
  ASSERT_EQ(rising.findings.size(), 1u) << Messages(rising);
  EXPECT_EQ(rising.findings[0].code, "ib-link-error-rate");
  EXPECT_EQ(rising.findings[0].entity, "node3/mlx5_2/port1");
  EXPECT_TRUE(AnyMessageContains(rising, "node3: mlx5_2 port 1: error counters rising: symbol_error +6 in 3.0 h "
                                         "(2.00/h) since run run-a (2026-12-01T09:12:44) (2.00/h > 1/h; now 6, "
                                         "within its count limit 10)"))
      << Messages(rising);
  EXPECT_TRUE(AnyMessageContains(rising, "reseat or replace the cable or transceiver of mlx5_2 port 1"));
  // Both rises are recorded with their rates; the counts with the unit the history keeps.
  std::map<std::string, std::string> values;
  for (const auto& m : rising.measurements) values[m.name] = m.value + " " + m.unit;
  EXPECT_EQ(values["node3/mlx5_2/port1.symbol_error"], "6 errors");
  EXPECT_EQ(values["node3/mlx5_2/port1.symbol_error_per_hour"], "2.00 errors/h");
  EXPECT_EQ(values["node3/mlx5_3/port1.symbol_error_per_hour"], "0.33 errors/h");
  // A profile that allows more passes it.
  LinkCounterRates looser;
  looser.ib_signal_errors_per_hour = 5;
  EXPECT_EQ(CheckPortErrorCounters("node3", report, looser, &previous).verdict, Verdict::kPass);
}

TEST(PortErrorCounterRates, ACounterThatWentDownOrSaturatedIsNotJudgedAsARate) {
  const auto previous = PreviousReading(3, {{"mlx5_2/port1.symbol_error", {40, false}}});
  const CheckResult cleared =
      CheckPortErrorCounters("node3", Counters("counter device=mlx5_2 port=1 name=symbol_error value=1\n"),
                             LinkCounterRates{}, &previous);
  EXPECT_EQ(cleared.verdict, Verdict::kPass) << Messages(cleared);
  bool noted = false;
  for (const auto& m : cleared.measurements) {
    if (m.name == "node3/mlx5_2/port1.symbol_error_per_hour") {
      noted = m.value == "not judged" && m.source.find("went down from 40 to 1") != std::string::npos;
    }
  }
  EXPECT_TRUE(noted);
  // A saturated counter fails by its count, never by a rate it cannot have.
  const CheckResult saturated = CheckPortErrorCounters(
      "node3", Counters("# Port extended counters: Lid 2 port 1 (CapMask: 0x5A00)\nSymbolErrorCounter:.....65535\n"),
      LinkCounterRates{}, &previous);
  for (const auto& finding : saturated.findings) EXPECT_NE(finding.code, "ib-link-error-rate");
}

// Through the registered suite on snapshots: the healthy node conforms, the one with a marginal
// rail fails naming it (and the counters are read from the snapshot's ib-counters.txt).
TEST(PortErrorCounters, SnapshotsOfAHealthyNodeAndOfAMarginalRail) {
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  auto verdict_of = [&](const std::string& snapshot) {
    return test_support::CheckOnFixture(kSuite, kPortErrorCountersWithinLimits, snapshot, profile);
  };
  EXPECT_EQ(verdict_of("topo-h100-healthy").verdict, Verdict::kPass);
  const CheckResult marginal = verdict_of("topo-h100-ib-link-errors");
  ASSERT_EQ(marginal.verdict, Verdict::kFail);
  EXPECT_EQ(marginal.findings.at(0).entity, "hgx-node-01/mlx5_3/port1");
  EXPECT_TRUE(AnyMessageContains(marginal, "mlx5_3 port 1: symbol_error 4871 > 10, link_error_recovery 3 > 0"));
  EXPECT_TRUE(AnyMessageContains(marginal, "[ib-link-downed] hgx-node-01: mlx5_3 port 1: link_downed 2 > 0"));
}

}  // namespace
}  // namespace gpuconform::infiniband
