#include "suites/nccl_topology/nccl_topology_checks.h"

#include <gtest/gtest.h>

#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "harness/core/cluster_raw.h"
#include "harness/core/snapshot_source.h"
#include "harness/core/suite_registry.h"
#include "probes/nccl_topo/nccl_topo_facts.h"
#include "probes/nccl_topo/nccl_topo_parse.h"
#include "probes/nccl_topo/nccl_topo_probe.h"
#include "suites/nccl_topology/topo_file_checks.h"

namespace gpuconform::nccl_topology {

using namespace gpuconform::nccl_topo;
namespace {

const std::string kRealdata = std::string(GPUCONFORM_REALDATA_DIR) + "/nccl-topo-xml";

using test_support::ExpectFirstFinding;
using test_support::FixtureDir;
using test_support::ReadFileIfPresent;

Profile Builtin(const std::string& name) { return test_support::BuiltinProfile(name); }

// Profiles for the machines the realdata files come from, where no built-in profile fits: a
// built-in one whose rail NICs are Ethernet (EFA, RoCE) at `rate_gbit_per_s`.
Profile EthernetRailsProfile(const std::string& base, const std::string& name, int rate_gbit_per_s) {
  Profile p = Builtin(base);
  p.name = name;
  p.infiniband->link_layer = "Ethernet";
  p.infiniband->rate_gbit_per_s = rate_gbit_per_s;
  return p;
}

Profile EfaProfile(const std::string& base, int nics) {
  Profile p = EthernetRailsProfile(base, base + "-efa-" + std::to_string(nics), 100);
  p.infiniband->rail_nics_per_node = nics;
  return p;
}

Profile RoceH100Profile() { return EthernetRailsProfile("h100-sxm-8", "h100-roce-200", 200); }

Profile PcieOnlyProfile() {
  Profile p = Builtin("h100-sxm-8");
  p.name = "a10g-pcie-8";
  p.nvlink.reset();
  p.infiniband->present = false;
  return p;
}

using test_support::VerdictsByCheck;

using test_support::Describe;

struct RealdataCase {
  std::string file;
  Profile profile;
  std::map<std::string, Verdict> expected;  // check -> verdict
  std::string why;                          // the .source.txt verdict this encodes
};

constexpr Verdict P = Verdict::kPass, F = Verdict::kFail, E = Verdict::kError, S = Verdict::kSkip;

// One node whose nccl-topo.xml is `xml` (or whose probe answered `status` with `detail`).
ClusterRaw NodeWithTopology(const std::string& xml, const std::string& origin,
                            ProbeStatus status = ProbeStatus::kOk, const std::string& detail = "") {
  ClusterRaw raw;
  raw.nodes = {"node1"};
  raw.node["node1"]["nccl-topo"] = {status, xml, origin, detail};
  return raw;
}

// The four topology checks on that node, as the registered suite judges them (skipped where
// the profile says they do not apply).
std::vector<CheckResult> JudgeTopology(const ClusterRaw& raw, const Profile& profile) {
  return test_support::JudgeRegistered(kSuite, raw, profile, CheckNames());
}

// Every topology check on a parsed topology, where the profile makes them all apply.
void JudgeEveryCheck(const std::string& node, const Topology& topology, const Profile& profile) {
  for (const auto& check : CheckNames()) ASSERT_EQ(NotApplicable(check, profile), std::nullopt) << check;
  (void)CheckGpuCount(node, topology, profile);
  (void)CheckNvlinkCountPerGpu(node, topology, profile);
  (void)CheckNicCountSpeedGdr(node, topology, profile);
  (void)CheckGpuHasNicUnderPcieSwitch(node, topology);
}

std::map<std::string, Verdict> V(Verdict gpus, Verdict nvlinks, Verdict nics, Verdict affinity) {
  return {{kGpuCount, gpus}, {kNvlinkCountPerGpu, nvlinks}, {kNicCountSpeedGdr, nics},
          {kGpuHasNicUnderPcieSwitch, affinity}};
}

TEST(NcclTopologyRealdata, EveryFileJudgedAsItsSourceSays) {
  if (!std::filesystem::is_directory(kRealdata)) GTEST_SKIP() << "no realdata at " << kRealdata;
  const Profile h100 = Builtin("h100-sxm-8");
  const Profile a100 = Builtin("a100-sxm-8");
  const std::vector<RealdataCase> cases = {
      {"aws-g5-48xl-topo.xml", PcieOnlyProfile(), V(E, S, S, S),
       "valid-but-minimal, missing attributes tolerated; NVLink/IB not applicable on a PCIe-only instance"},
      {"aws-p4d-24xl-topo.xml", EfaProfile("a100-sxm-8", 4), V(P, E, P, P), "pass for EFA (2 GPUs per NIC)"},
      {"aws-p4d-24xl-topo.xml", a100, V(P, E, F, P), "fail if the suite demands 1 NIC per GPU or IB"},
      {"aws-p4de-24xl-topo.xml", EfaProfile("a100-sxm-8", 4), V(P, E, P, P), "pass for EFA (2 GPUs per NIC)"},
      {"aws-p5-48xl-topo-pr1226-rejected.xml", EfaProfile("h100-sxm-8", 32), V(P, F, P, P),
       "known-bad: a deep check flags H100 <gpu>s without <nvlink> even on its own EFA profile"},
      {"aws-p5-48xl-topo-pr1226-rejected.xml", h100, V(P, F, F, P), "known-bad on an IB H100 profile too"},
      {"aws-p5-48xl-topo.xml", EfaProfile("h100-sxm-8", 32), V(E, E, E, E),
       "valid PCI skeleton: nothing fails; what it does not state is named"},
      {"azure-ncv4-topo.xml", a100, V(F, F, F, F), "no IB NIC and no real NVLink: IB/RDMA and NVLink checks fail"},
      {"azure-ndv2-topo.xml", a100, V(P, E, F, F), "only 1 NIC for 8 GPUs: NIC count fails"},
      {"azure-ndv4-topo.xml", a100, V(P, E, P, P), "8 GPUs + 8 IB NICs with GPU-NIC affinity: pass"},
      {"azure-ndv5-topo.xml", h100, V(P, E, P, P), "8 GPU/8 NIC H100 with 1:1 pairing: pass"},
      {"ibm-gx3d-h100-vsi-topo.xml", RoceH100Profile(), V(P, P, P, P), "18 NVLinks + 8 RDMA NICs: pass (RoCE 200G)"},
      {"ibm-gx3d-h100-vsi-topo.xml", h100, V(P, P, F, P), "fails only if the suite requires 400G NDR IB"},
  };
  for (const auto& c : cases) {
    const auto text = ReadFileIfPresent(kRealdata + "/" + c.file);
    ASSERT_TRUE(text) << c.file;
    auto topology = ParseTopologyXml(*text, c.file);
    ASSERT_TRUE(topology) << c.file << ": " << topology.error();
    const auto results = JudgeTopology(NodeWithTopology(*text, c.file), c.profile);
    EXPECT_EQ(VerdictsByCheck(results), c.expected)
        << c.file << " with profile " << c.profile.name << " (" << c.why << ")\n" << Describe(results);
  }
}

TEST(NcclTopologyRealdata, GraphFileIsRejectedAsTheWrongKindNamingTheFile) {
  if (!std::filesystem::is_directory(kRealdata)) GTEST_SKIP() << "no realdata at " << kRealdata;
  const auto text = ReadFileIfPresent(kRealdata + "/azure-ncv4-graph.xml");
  ASSERT_TRUE(text);
  auto topology = ParseTopologyXml(*text, "azure-ncv4-graph.xml");
  test_support::ExpectErrorStartingWith(topology, "azure-ncv4-graph.xml:1: ");
  EXPECT_NE(topology.error().find("graph file"), std::string::npos) << topology.error();
  EXPECT_NE(topology.error().find("<system>"), std::string::npos) << topology.error();
}

TEST(NcclTopologyRealdata, ParsesTheFactsEachFileStates) {
  if (!std::filesystem::is_directory(kRealdata)) GTEST_SKIP() << "no realdata at " << kRealdata;
  const auto ibm =
      test_support::Parsed(ParseTopologyXml(*ReadFileIfPresent(kRealdata + "/ibm-gx3d-h100-vsi-topo.xml"), "ibm"));
  ASSERT_EQ(ibm.gpus.size(), 8u);
  EXPECT_EQ(ibm.gpus[0].sm, 90);
  EXPECT_EQ(ibm.gpus[0].nvlinks.size(), 4u);
  ASSERT_EQ(ibm.nets.size(), 8u);
  EXPECT_EQ(ibm.nets[0].name, "mlx5_7");
  EXPECT_EQ(ibm.nets[0].speed_mbit_per_s, 200000);
  EXPECT_EQ(ibm.nets[0].gdr, true);
  EXPECT_EQ(ibm.nets[0].maxconn, 131072);
  EXPECT_EQ(ibm.cpus[0].vendor, "GenuineIntel");
  EXPECT_EQ(ibm.version, "1");

  const auto p5 = test_support::Parsed(ParseTopologyXml(*ReadFileIfPresent(kRealdata + "/aws-p5-48xl-topo.xml"), "p5"));
  EXPECT_FALSE(p5.any_pci_class);
  ASSERT_GT(p5.pcis.size(), 1u);
  EXPECT_EQ(p5.pcis[1].link_speed_gt_per_s, 32.0);  // "32 GT/s PCIe/s"
  EXPECT_EQ(p5.pcis[1].link_width_lanes, 16);

  const auto g5 = test_support::Parsed(ParseTopologyXml(*ReadFileIfPresent(kRealdata + "/aws-g5-48xl-topo.xml"), "g5"));
  EXPECT_EQ(g5.pcis.size(), 9u);
  EXPECT_FALSE(g5.cpus[0].numa_id == std::nullopt);
}

TEST(NcclTopologyRealdata, SurvivesEveryTruncationOfEveryFile) {
  if (!std::filesystem::is_directory(kRealdata)) GTEST_SKIP() << "no realdata at " << kRealdata;
  const Profile h100 = Builtin("h100-sxm-8");
  for (const auto& entry : std::filesystem::directory_iterator(kRealdata)) {
    if (entry.path().extension() != ".xml") continue;
    const std::string text = *ReadFileIfPresent(entry.path().string());
    for (std::size_t length = 0; length <= text.size(); length += 7) {
      auto topology = ParseTopologyXml(text.substr(0, length), "cut");
      if (topology) JudgeEveryCheck("n", *topology, h100);
    }
  }
  SUCCEED();
}

TEST(NcclTopologyParse, LinkSpeedStringsOfEveryNcclVersion) {
  EXPECT_EQ(ParseLinkSpeedGtPerS("32.0 GT/s PCIe"), 32.0);
  EXPECT_EQ(ParseLinkSpeedGtPerS("32 GT/s PCIe/s"), 32.0);
  EXPECT_EQ(ParseLinkSpeedGtPerS("16 GT/s"), 16.0);
  EXPECT_EQ(ParseLinkSpeedGtPerS("2.5 GT/s PCIe"), 2.5);
  EXPECT_EQ(ParseLinkSpeedGtPerS(""), std::nullopt);
  EXPECT_EQ(ParseLinkSpeedGtPerS("Unknown"), std::nullopt);
}

TEST(NcclTopologyParse, WrongRootAndBrokenXmlAreErrorsNamingOriginAndLine) {
  test_support::ExpectErrorStartingWith(
      ParseTopologyXml("<?xml version=\"1.0\"?>\n<nvidia_smi_log/>", "n1/nccl-topo.xml"),
      "n1/nccl-topo.xml:2: not an NCCL topology file");
  test_support::ExpectErrorStartingWith(
      ParseTopologyXml("<system version=\"1\">\n  <cpu numaid=\"0\">\n    <pci busid=", "t.xml"),
      "t.xml:3: invalid XML");
  EXPECT_FALSE(ParseTopologyXml("", "empty"));
  EXPECT_FALSE(ParseTopologyXml(std::string(kMaxTopologyBytes + 1, ' '), "huge"));
}

TEST(NcclTopologyParse, SurvivesRandomBytesAndDeepNesting) {
  test_support::ForEachNoisyString(
      {.seed = 777, .count = 3000, .max_extra = 151, .starts = {"", "<system><cpu><pci busid=\""}},
      [](const std::string& bytes) { (void)ParseTopologyXml(bytes, "fuzz"); });
  std::string deep = "<system><cpu numaid=\"0\">";
  for (int i = 0; i < 100000; ++i) deep += "<pci class=\"0x060400\">";
  deep += "<pci class=\"0x030200\"><gpu dev=\"0\"/></pci>";
  for (int i = 0; i < 100000; ++i) deep += "</pci>";
  deep += "</cpu></system>";
  const auto topology = test_support::Parsed(ParseTopologyXml(deep, "deep"));
  EXPECT_EQ(topology.gpus.size(), 1u);
  JudgeEveryCheck("n", topology, Builtin("h100-sxm-8"));
}

// A topology built in the test, one fact per case.
std::string OneSwitchTopology(const std::string& nic_attributes, const std::string& nvlinks) {
  return "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"0000:15:00.0\" class=\"0x060400\">"
         "<pci busid=\"0000:17:00.0\" class=\"0x020700\"><nic><net name=\"mlx5_0\" " + nic_attributes +
         "/></nic></pci><pci busid=\"0000:18:00.0\" class=\"0x030200\"><gpu dev=\"0\" sm=\"90\" gdr=\"1\">" + nvlinks +
         "</gpu></pci></pci></cpu></system>";
}

Profile OneGpuProfile() {
  Profile p = Builtin("h100-sxm-8");
  p.gpu->count_per_node = 1;
  p.infiniband->rail_nics_per_node = 1;
  return p;
}

const std::string kEighteenLinks = "<nvlink target=\"0000:c3:00.0\" count=\"18\" tclass=\"0x068000\"/>";

TEST(NcclTopologyChecks, HealthyOneGpuNodeConforms) {
  const auto results =
      JudgeTopology(NodeWithTopology(OneSwitchTopology("speed=\"400000\" gdr=\"1\"", kEighteenLinks), "t"),
                    OneGpuProfile());
  ASSERT_EQ(results.size(), 4u);
  for (const auto& r : results) {
    EXPECT_EQ(r.verdict, Verdict::kPass) << r.check << ": " << Describe({r});
  }
}

TEST(NcclTopologyChecks, NicWithoutGdrFailsNamingTheNic) {
  auto topology = ParseTopologyXml(OneSwitchTopology("speed=\"400000\" gdr=\"0\"", kEighteenLinks), "t");
  const auto r = CheckNicCountSpeedGdr("n1", *topology, OneGpuProfile());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].code, "nic-no-gdr");
  EXPECT_EQ(r.findings[0].entity, "n1/mlx5_0");
  EXPECT_NE(r.findings[0].message.find("nvidia-peermem"), std::string::npos);
}

TEST(NcclTopologyChecks, SlowNicFailsWithObservedAndExpectedRate) {
  auto topology = ParseTopologyXml(OneSwitchTopology("speed=\"200000\" gdr=\"1\"", kEighteenLinks), "t");
  const auto r = CheckNicCountSpeedGdr("n1", *topology, OneGpuProfile());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_NE(r.findings[0].message.find("speed 200 Gbit/s, expected >= 400 Gbit/s"), std::string::npos)
      << r.findings[0].message;
}

TEST(NcclTopologyChecks, MissingNvlinksFailPerGpu) {
  auto topology = ParseTopologyXml(
      OneSwitchTopology("speed=\"400000\" gdr=\"1\"", "<nvlink target=\"0000:c3:00.0\" count=\"12\" tclass=\"0x068000\"/>"),
      "t");
  const auto r = CheckNvlinkCountPerGpu("n1", *topology, OneGpuProfile());
  ExpectFirstFinding(r, "n1/gpu0", "n1/gpu0 (0000:18:00.0): 12 NVLinks to NVSwitches, expected 18");
}

TEST(NcclTopologyChecks, GpuCountMismatchFails) {
  auto topology = ParseTopologyXml(OneSwitchTopology("speed=\"400000\" gdr=\"1\"", kEighteenLinks), "t");
  const auto r = CheckGpuCount("n1", *topology, Builtin("h100-sxm-8"));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_NE(r.findings[0].message.find("1 GPUs, expected 8"), std::string::npos);
}

TEST(NcclTopologyChecks, ProfileWithoutGpusSkipsEveryCheckEvenWithoutAFile) {
  const Profile local = Builtin("local");
  const ClusterRaw absent = NodeWithTopology("", "", ProbeStatus::kAbsent, "no file");
  const auto skipped = JudgeTopology(absent, local);
  ASSERT_EQ(skipped.size(), 4u);
  for (const auto& r : skipped) {
    EXPECT_EQ(r.verdict, Verdict::kSkip) << r.check;
    EXPECT_EQ(r.findings[0].message, NotApplicable(r.check, local).value_or("")) << r.check;
  }
  const ClusterRaw unset = NodeWithTopology("", "", ProbeStatus::kToolMissing, "NCCL_TOPO_DUMP_FILE is not set");
  for (const auto& r : JudgeTopology(unset, Builtin("h100-sxm-8"))) {
    EXPECT_EQ(r.verdict, Verdict::kError) << r.check;
    EXPECT_EQ(r.findings[0].code, "tool-missing") << r.check;
    EXPECT_EQ(r.findings[0].message, "NCCL_TOPO_DUMP_FILE is not set");
    EXPECT_EQ(r.TestName(), "NcclTopology." + r.check + "/node1");
  }
  const auto absent_results = JudgeTopology(absent, Builtin("h100-sxm-8"));
  ASSERT_FALSE(absent_results.empty());
  EXPECT_EQ(absent_results[0].findings[0].message, std::string("no file; ") + kHowToProduce);
  const auto unparseable = JudgeTopology(NodeWithTopology("<nvidia_smi_log/>", "n1/nccl-topo.xml"), Builtin("h100-sxm-8"));
  ASSERT_FALSE(unparseable.empty());
  EXPECT_EQ(unparseable[0].findings[0].code, "unparseable");
  EXPECT_EQ(unparseable[0].findings[0].message.rfind("n1/nccl-topo.xml:1: not an NCCL topology file", 0), 0u)
      << unparseable[0].findings[0].message;
}

// The topology is parsed once per node however many checks read it.
TEST(NcclTopologyFacts, ATopologyIsParsedOncePerNode) {
  const ClusterRaw raw = NodeWithTopology(OneSwitchTopology("speed=\"400000\" gdr=\"1\"", kEighteenLinks), "t");
  const Result<Topology>& first = ReadTopology(raw, "node1");
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->origin, "t");
  EXPECT_EQ(&ReadTopology(raw, "node1"), &first);
  const Result<Topology>& file = ReadTopoFile(raw, "node1");
  EXPECT_FALSE(file);
  EXPECT_EQ(&ReadTopoFile(raw, "node1"), &file);
}

// ---- fixture snapshots, judged through the registered suite -------------------------------

std::map<std::string, Verdict> JudgeSnapshot(const std::string& name, const std::string& profile_name,
                                             std::string* messages = nullptr) {
  const auto results = test_support::EvaluateSuiteOnSnapshot(kSuite, FixtureDir(name), Builtin(profile_name));
  if (messages) *messages = Describe(results);
  return test_support::VerdictsByCase(results);
}

// The snapshots without nodes/<h>/nccl-topo-file.xml had no NCCL_TOPO_FILE set: that check skips.
std::map<std::string, Verdict> AllPass(const std::vector<std::string>& nodes,
                                       Verdict topo_file = Verdict::kSkip) {
  std::map<std::string, Verdict> verdicts;
  for (const auto& check : CheckNames()) {
    for (const auto& node : nodes) verdicts[check + "/" + node] = Verdict::kPass;
  }
  for (const auto& node : nodes) verdicts[std::string(kTopoFileMatchesNode) + "/" + node] = topo_file;
  return verdicts;
}

TEST(NcclTopologyFixtures, HealthyH100SnapshotConforms) {
  std::string messages;
  EXPECT_EQ(JudgeSnapshot("nccl-h100-2node-healthy", "h100-sxm-8", &messages),
            AllPass({"gpu-node-01", "gpu-node-02"}))
      << messages;
}

TEST(NcclTopologyFixtures, EachBrokenSnapshotFailsTheRightCheckOnTheRightNode) {
  struct Case {
    std::string snapshot;
    std::vector<std::string> failing;  // "Check/node"
  };
  const std::vector<Case> cases = {
      {"nccl-topo-one-nic", {"NicCountSpeedGdr/gpu-node-01", "GpuHasNicUnderPcieSwitch/gpu-node-01"}},
      {"nccl-topo-from-a100", {"NvlinkCountPerGpu/gpu-node-02", "NicCountSpeedGdr/gpu-node-02"}},
      {"nccl-mixed-gdr", {"NicCountSpeedGdr/gpu-node-02"}},
  };
  for (const auto& c : cases) {
    auto expected = AllPass({"gpu-node-01", "gpu-node-02"});
    for (const auto& name : c.failing) expected[name] = Verdict::kFail;
    std::string messages;
    EXPECT_EQ(JudgeSnapshot(c.snapshot, "h100-sxm-8", &messages), expected) << c.snapshot << "\n" << messages;
  }
}

TEST(NcclTopologyFixtures, TopoFileOfThisMachineTypeConformsOnEveryNode) {
  std::string messages;
  EXPECT_EQ(JudgeSnapshot("nccl-topo-file-healthy", "h100-sxm-8", &messages),
            AllPass({"gpu-node-01", "gpu-node-02"}, Verdict::kPass))
      << messages;
}

TEST(NcclTopologyFixtures, TopoFileFromAnotherMachineFailsOnlyThatCheckOnThatNode) {
  std::string messages;
  auto expected = AllPass({"gpu-node-01", "gpu-node-02"}, Verdict::kPass);
  expected[std::string(kTopoFileMatchesNode) + "/gpu-node-02"] = Verdict::kFail;
  EXPECT_EQ(JudgeSnapshot("nccl-topo-file-from-another-machine", "h100-sxm-8", &messages), expected) << messages;
  EXPECT_NE(messages.find("gpu-node-02: NCCL_TOPO_FILE"), std::string::npos) << messages;
  EXPECT_NE(messages.find("PCI device 0000:07:00.0 (0x030200 (GPU) in the file) does not exist on this node"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("0000:b7:00.0 is 0x030200 (GPU) in the file but 0x060400 (PCI bridge or switch) on this node"),
            std::string::npos)
      << messages;
  EXPECT_NE(messages.find("unset NCCL_TOPO_FILE"), std::string::npos) << messages;
}

}  // namespace
}  // namespace gpuconform::nccl_topology
