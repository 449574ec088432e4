#include "suites/nccl_topology/topo_file_checks.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "harness/core/live_source.h"
#include "probes/nccl_topo/nccl_topo_file_probe.h"
#include "probes/pci_devices/pci_devices_facts.h"
#include "probes/pci_devices/pci_devices_probe.h"
#include "suites/nccl_topology/nccl_topology_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::nccl_topology {
namespace {

using test_support::Describe;

// The pci-devices list a node would show if it were exactly the machine the file describes:
// every real bus id with the class, vendor and device the file states.
std::string PciListFromTopology(const Topology& topology) {
  std::string text;
  for (const auto& pci : topology.pcis) {
    const auto busid = CanonicalBusId(pci.busid);
    if (!busid || IsVirtualBusId(*busid)) continue;
    text += *busid;
    if (!pci.class_code.empty()) text += " " + pci.class_code;
    if (!pci.class_code.empty() && !pci.vendor.empty() && !pci.device.empty()) text += " " + pci.vendor + " " + pci.device;
    text += "\n";
  }
  return text;
}

RawOutput Ok(std::string text, std::string origin) { return {ProbeStatus::kOk, std::move(text), std::move(origin), ""}; }

// One node whose NCCL_TOPO_FILE and PCI device probes answered these.
ClusterRaw NodeWith(const std::string& node, const RawOutput& topo_file, const RawOutput& pci_devices) {
  ClusterRaw raw;
  raw.nodes = {node};
  raw.node[node]["nccl-topo-file"] = topo_file;
  raw.node[node]["pci-devices"] = pci_devices;
  return raw;
}

// NcclTopology.TopoFileMatchesNode on that node, judged as the registered suite judges it.
CheckResult JudgeTopoFile(const std::string& node, const RawOutput& topo_file, const RawOutput& pci_devices) {
  return test_support::JudgeRegisteredOnce(kSuite, kTopoFileMatchesNode, NodeWith(node, topo_file, pci_devices),
                                            Profile{});
}

TEST(PciBusId, EverySpellingOfOneDeviceIsTheSameId) {
  EXPECT_EQ(CanonicalBusId("0000:18:00.0"), "0000:18:00.0");
  EXPECT_EQ(CanonicalBusId("00000000:18:00.0"), "0000:18:00.0");  // CUDA / NVML, eight-digit domain
  EXPECT_EQ(CanonicalBusId("00000000:1A:00.0"), "0000:1a:00.0");  // NVML writes upper case
  EXPECT_EQ(CanonicalBusId("0000000000000000:18:00.0"), "0000:18:00.0");  // sixteen digits, NCCL's int64
  EXPECT_EQ(CanonicalBusId("18:00.0"), "0000:18:00.0");  // lspci leaves domain 0 out
  EXPECT_EQ(CanonicalBusId(" 0001:00:00.0 "), "0001:00:00.0");
  EXPECT_EQ(CanonicalBusId("10000:e1:00.0"), "10000:e1:00.0");  // VMD domains are wider than four digits
  EXPECT_EQ(CanonicalBusId("FFFF:FF:01.0"), "ffff:ff:01.0");
  EXPECT_TRUE(IsVirtualBusId(*CanonicalBusId("ffff:ff:01.0")));
  EXPECT_FALSE(IsVirtualBusId(*CanonicalBusId("0000:ff:01.0")));
}

TEST(PciBusId, NonIdsAreRejected) {
  for (const char* text : {"", "0000:18:00", "0000:18:20.0", "0000:18:00.8", "0000:118:00.0", "x:18:00.0",
                           "00000000000000000:18:00.0", "a:b:18:00.0", "0000:18:00.0.0", ":.", "0000:18:-1.0"}) {
    EXPECT_EQ(CanonicalBusId(text), std::nullopt) << text;
  }
}

TEST(PciDevices, ParsesClassAndIdsAndNamesTheBadLine) {
  const auto devices = test_support::Parsed(ParsePciDevices(
      "0000:18:00.0 0x030200 0x10de 0x2330\n0000:17:00.0 0x020700\n\n0000:00:00.0 unknown\n", "n1/pci-devices.txt"));
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices.at("0000:18:00.0").class_code, "0x030200");
  EXPECT_EQ(devices.at("0000:18:00.0").device, "0x2330");
  EXPECT_EQ(devices.at("0000:17:00.0").vendor, "");
  EXPECT_EQ(devices.at("0000:00:00.0").class_code, "");
  test_support::ExpectErrorStartingWith(
      ParsePciDevices("0000:18:00.0 0x030200\nnvidia-smi: command not found\n", "n1/pci-devices.txt"),
      "n1/pci-devices.txt:2: expected a PCI bus id");
  EXPECT_FALSE(ParsePciDevices("", "empty"));
  test_support::SurvivesTruncationAndNoise("0000:18:00.0 0x030200 0x10de 0x2330\n0000:17:00.0 0x020700\n",
                                           [](const std::string& text, const char* origin) {
                                             return ParsePciDevices(text, origin);
                                           });
}

const std::string kOneGpuFile =
    "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"ffff:ff:01.0\" class=\"0x060400\" vendor=\"0xffff\" "
    "device=\"0xffff\">\n<pci busid=\"0000:18:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x2330\"><gpu dev=\"0\"/>"
    "</pci>\n<pci busid=\"0000:17:00.0\" class=\"0x020700\"><nic><net name=\"mlx5_0\"/></nic></pci></pci></cpu></system>";

TEST(TopoFileMatchesNode, FileOfThisNodePassesInAnySpellingOfItsBusIds) {
  const auto result = JudgeTopoFile(
      "n1", Ok(kOneGpuFile, "n1:/etc/nccl-topo.xml (NCCL_TOPO_FILE)"),
      Ok("0000:17:00.0 0x020700 0x15b3 0x1021\n0000:18:00.0 0x030200 0x10de 0x2330\n", "n1: /sys/bus/pci/devices"));
  EXPECT_EQ(result.verdict, Verdict::kPass) << Describe({result});
  const auto upper = JudgeTopoFile("n1", Ok(kOneGpuFile, "t"),
                                   Ok("00000000:17:00.0 0x020700\n00000000:18:00.0 0x030200\n", "nvml-style"));
  EXPECT_EQ(upper.verdict, Verdict::kPass) << Describe({upper});
}

TEST(TopoFileMatchesNode, MissingDeviceFailsNamingBusIdAndFix) {
  const auto result = JudgeTopoFile("n1", Ok(kOneGpuFile, "n1:/etc/nccl-topo.xml (NCCL_TOPO_FILE)"),
                                    Ok("0000:17:00.0 0x020700\n", "sysfs"));
  ASSERT_EQ(result.verdict, Verdict::kFail) << Describe({result});
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code, "topo-file-device-missing");
  EXPECT_EQ(result.findings[0].entity, "n1/pci/0000:18:00.0");
  const std::string& message = result.findings[0].message;
  EXPECT_EQ(message.rfind("n1: NCCL_TOPO_FILE n1:/etc/nccl-topo.xml (NCCL_TOPO_FILE) line 2: PCI device 0000:18:00.0 "
                          "(0x030200 (GPU) in the file) does not exist on this node",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("unset NCCL_TOPO_FILE"), std::string::npos) << message;
  EXPECT_NE(message.find("NCCL_TOPO_DUMP_FILE"), std::string::npos) << message;
}

TEST(TopoFileMatchesNode, ClassMismatchFailsNamingBothClasses) {
  const auto result = JudgeTopoFile("n1", Ok(kOneGpuFile, "f"), Ok("0000:17:00.0 0x020700\n0000:18:00.0 0x020000\n", "s"));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code, "topo-file-class-mismatch");
  EXPECT_NE(result.findings[0].message.find(
                "0000:18:00.0 is 0x030200 (GPU) in the file but 0x020000 (Ethernet NIC) on this node"),
            std::string::npos)
      << result.findings[0].message;
}

TEST(TopoFileMatchesNode, OtherModelOfTheDeviceFails) {
  const auto result = JudgeTopoFile("n1", Ok(kOneGpuFile, "f"),
                                    Ok("0000:17:00.0 0x020700\n0000:18:00.0 0x030200 0x10de 0x20b0\n", "s"));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].code, "topo-file-id-mismatch");
  EXPECT_NE(result.findings[0].message.find("0x10de:0x2330 in the file but 0x10de:0x20b0 on this node"),
            std::string::npos)
      << result.findings[0].message;
}

TEST(TopoFileMatchesNode, UnsetFileSkipsAndBrokenInputsAreErrors) {
  const RawOutput unset{ProbeStatus::kAbsent, "", "n1: $NCCL_TOPO_FILE", "n1: NCCL_TOPO_FILE is not set in the environment"};
  const auto skipped = JudgeTopoFile("n1", unset, Ok("0000:18:00.0 0x030200\n", "s"));
  EXPECT_EQ(skipped.verdict, Verdict::kSkip);
  EXPECT_EQ(skipped.TestName(), "NcclTopology.TopoFileMatchesNode/n1");
  EXPECT_EQ(skipped.findings[0].message,
            "n1: NCCL_TOPO_FILE is not set, so NCCL detects the topology itself and there is no static file to compare "
            "(n1: NCCL_TOPO_FILE is not set in the environment)");

  const RawOutput no_sysfs{ProbeStatus::kToolMissing, "", "n1: /sys/bus/pci/devices",
                           "n1: /sys/bus/pci/devices does not exist"};
  const auto no_pci = JudgeTopoFile("n1", Ok(kOneGpuFile, "f"), no_sysfs);
  EXPECT_EQ(no_pci.verdict, Verdict::kError);
  EXPECT_EQ(no_pci.findings[0].code, "tool-missing");
  EXPECT_EQ(no_pci.findings[0].message,
            "n1: NCCL_TOPO_FILE is set but the node's PCI devices are unknown, so the file cannot be checked: n1: "
            "/sys/bus/pci/devices does not exist");
  const auto bad_pci = JudgeTopoFile("n1", Ok(kOneGpuFile, "f"), Ok("not a bus id\n", "s"));
  EXPECT_EQ(bad_pci.verdict, Verdict::kError);
  EXPECT_EQ(bad_pci.findings[0].code, "unparseable");
  EXPECT_EQ(bad_pci.findings[0].message.rfind("s:1: ", 0), 0u) << bad_pci.findings[0].message;

  const auto graph = JudgeTopoFile("n1", Ok("<graphs version=\"1\"/>", "f.xml"), Ok("0000:18:00.0 0x030200\n", "s"));
  EXPECT_EQ(graph.verdict, Verdict::kError);
  EXPECT_EQ(graph.findings[0].code, "unparseable");
  EXPECT_EQ(graph.findings[0].message.rfind("n1: NCCL_TOPO_FILE is set but unusable: f.xml:1: ", 0), 0u)
      << graph.findings[0].message;
  EXPECT_NE(graph.findings[0].message.find("graph file"), std::string::npos) << graph.findings[0].message;

  const auto only_virtual = JudgeTopoFile(
      "n1", Ok("<system><cpu><pci busid=\"ffff:ff:01.0\" class=\"0x060400\"/></cpu></system>", "f"),
      Ok("0000:18:00.0 0x030200\n", "s"));
  EXPECT_EQ(only_virtual.verdict, Verdict::kError);

  const RawOutput unreadable{ProbeStatus::kFailed, "", "n1:/x", "n1: NCCL_TOPO_FILE=/x but the file cannot be read"};
  const auto failed = JudgeTopoFile("n1", unreadable, Ok("0000:18:00.0 0x030200\n", "s"));
  EXPECT_EQ(failed.verdict, Verdict::kError);
  EXPECT_EQ(failed.findings[0].code, "probe-failed");
  EXPECT_EQ(failed.findings[0].message, "n1: NCCL_TOPO_FILE=/x but the file cannot be read");
}

// A node's PCI device list is parsed once per run, however many checks read it.
TEST(PciDevicesFacts, TheListIsParsedOncePerNode) {
  const ClusterRaw raw = NodeWith("n1", Ok(kOneGpuFile, "f"), Ok("0000:18:00.0 0x030200\n", "s"));
  const Result<LivePciDevices>& first = ReadPciDevices(raw, "n1");
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->size(), 1u);
  EXPECT_EQ(&ReadPciDevices(raw, "n1"), &first);
  const Result<LivePciDevices>& absent = ReadPciDevices(raw, "n2");
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error(), "n2: no pci-devices output was collected");
}

TEST(TopoFileMatchesNode, AFileOfManyWrongDevicesListsSomeAndCountsTheRest) {
  std::string file = "<system><cpu>";
  for (int i = 0; i < 40; ++i) {
    char busid[16];
    std::snprintf(busid, sizeof(busid), "0000:%02x:00.0", 0x40 + i);
    file += std::string("<pci busid=\"") + busid + "\" class=\"0x030200\"/>";
  }
  file += "</cpu></system>";
  const auto result = JudgeTopoFile("n1", Ok(file, "f"), Ok("0000:18:00.0 0x030200\n", "s"));
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 17u);
  EXPECT_NE(result.findings.back().message.find("and 24 more"), std::string::npos) << result.findings.back().message;
}

// ---- every realdata topology against itself and against the other machines --------------

struct RealTopology {
  std::string name;
  Topology topology;
  std::string pci_list;
};

std::vector<RealTopology> RealTopologies(const std::filesystem::path& dir) {
  std::vector<RealTopology> topologies;
  for (const auto& path : test_support::DataFiles(dir)) {
    auto topology = ParseTopologyXml(test_support::ReadFile(path), path.filename().string());
    // The graph file (azure-ncv4-graph.xml) is not a topology; its rejection is tested elsewhere.
    if (!topology) continue;
    topologies.push_back({path.filename().string(), *topology, PciListFromTopology(*topology)});
  }
  return topologies;
}

TEST(TopoFileRealdata, EveryTopologyMatchesTheNodeItDescribes) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nccl-topo-xml");
  const auto topologies = RealTopologies(dir);
  ASSERT_GE(topologies.size(), 10u);
  for (const auto& t : topologies) {
    const auto result = JudgeTopoFile("node1", Ok(test_support::ReadFile(dir / t.name), t.name), Ok(t.pci_list, "self"));
    EXPECT_EQ(result.verdict, Verdict::kPass) << t.name << "\n" << Describe({result});
  }
}

TEST(TopoFileRealdata, EveryTopologyFailsOnEveryOtherMachine) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nccl-topo-xml");
  // Pairs a node's PCI list cannot tell apart when derived from the other file alone: that
  // file states no vendor/device ids and has the same bus ids and classes. On the live node
  // sysfs states the ids, so the file would be caught (NC A100 v4 has A100 PCIe 0x20b5;
  // ND A100 v4 has A100 SXM4 0x20b0).
  const std::set<std::pair<std::string, std::string>> indistinguishable = {
      {"azure-ncv4-topo.xml", "azure-ndv4-topo.xml"},
      {"azure-ncv4-topo.xml", "azure-ndv2-topo.xml"},
  };
  const auto topologies = RealTopologies(dir);
  int failing_pairs = 0;
  for (const auto& file : topologies) {
    for (const auto& node : topologies) {
      if (file.name == node.name) continue;
      const auto result =
          JudgeTopoFile("node1", Ok(test_support::ReadFile(dir / file.name), file.name), Ok(node.pci_list, node.name));
      const bool expected_to_pass = indistinguishable.count({file.name, node.name}) != 0;
      EXPECT_EQ(result.verdict, expected_to_pass ? Verdict::kPass : Verdict::kFail)
          << file.name << " on a node that is " << node.name << "\n" << Describe({result});
      if (result.verdict == Verdict::kFail) ++failing_pairs;
    }
  }
  EXPECT_GT(failing_pairs, 80);
}

TEST(TopoFileRealdata, NdA100V4FileOnAnNcA100V4NodeFailsOnTheDeviceIds) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nccl-topo-xml");
  // What sysfs on an NC A100 v4 node shows for the GPUs its topology file names.
  const std::string nc_node = "0001:00:00.0 0x030200 0x10de 0x20b5\n0002:00:00.0 0x030200 0x10de 0x20b5\n"
                              "0003:00:00.0 0x030200 0x10de 0x20b5\n0004:00:00.0 0x030200 0x10de 0x20b5\n";
  const std::string nd_file = test_support::ReadFile(dir / "azure-ndv4-topo.xml");
  const auto result = JudgeTopoFile("node1", Ok(nd_file, "azure-ndv4-topo.xml"), Ok(nc_node, "nc-a100-v4"));
  ASSERT_EQ(result.verdict, Verdict::kFail) << Describe({result});
  EXPECT_EQ(result.findings[0].code, "topo-file-device-missing");
}

// ---- the live probes, on this machine -----------------------------------------------------

std::filesystem::path TempDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuconform-test-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(PciDevicesProbe, ListsThisMachinesSysfsOrNamesTheMissingDirectory) {
  const LiveContext context{"here", nullptr};
  const RawOutput out = pci_devices::PciDevicesOutput(context);
  std::error_code ec;
  if (std::filesystem::is_directory("/sys/bus/pci/devices", ec)) {
    ASSERT_TRUE(out.ok()) << out.detail;
    auto devices = ParsePciDevices(out.text, out.origin);
    ASSERT_TRUE(devices) << devices.error() << "\n" << out.text;
    std::size_t entries = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/sys/bus/pci/devices")) {
      (void)entry;
      ++entries;
    }
    EXPECT_EQ(devices->size(), entries);
    for (const auto& [busid, device] : *devices) EXPECT_EQ(device.class_code.rfind("0x", 0), 0u) << busid;
  } else {
    EXPECT_EQ(out.status, ProbeStatus::kToolMissing);
    EXPECT_NE(out.detail.find("/sys/bus/pci/devices does not exist"), std::string::npos) << out.detail;
  }
}

TEST(PciDevicesProbe, ReadsTheSysfsStandInAndNamesAnAbsentOne) {
  const auto root = TempDir("sysfs");
  WriteText(root / "bus/pci/devices/0000:18:00.0/class", "0x030200\n");
  WriteText(root / "bus/pci/devices/0000:18:00.0/vendor", "0x10de\n");
  WriteText(root / "bus/pci/devices/0000:18:00.0/device", "0x2330\n");
  WriteText(root / "bus/pci/devices/0000:17:00.0/class", "0x020700\n");
  RunOptions options;
  options.sysfs_root = root.string();
  const RawOutput listed = pci_devices::PciDevicesOutput({"n1", nullptr, options});
  options.sysfs_root = (root / "absent").string();
  const RawOutput absent = pci_devices::PciDevicesOutput({"n1", nullptr, options});
  std::filesystem::remove_all(root);
  ASSERT_TRUE(listed.ok()) << listed.detail;
  EXPECT_EQ(listed.text, "0000:17:00.0 0x020700\n0000:18:00.0 0x030200 0x10de 0x2330\n");
  EXPECT_EQ(absent.status, ProbeStatus::kToolMissing);
  EXPECT_NE(absent.detail.find((root / "absent/bus/pci/devices").string() + " does not exist"), std::string::npos)
      << absent.detail;
}

TEST(NcclTopoFileProbe, CopiesTheNamedFileAndIsAbsentWhenUnset) {
  const auto dir = TempDir("topo-file");
  WriteText(dir / "topo.xml", kOneGpuFile);
  const auto with_topo_file = [](const std::string& value) {
    return BuildRunOptions({}, {{"NCCL_TOPO_FILE", value}});
  };
  const RawOutput copied = nccl_topo::NcclTopoFileOutput({"n1", nullptr, with_topo_file((dir / "topo.xml").string())});
  const RawOutput missing = nccl_topo::NcclTopoFileOutput({"n1", nullptr, with_topo_file((dir / "missing.xml").string())});
  const RawOutput empty = nccl_topo::NcclTopoFileOutput({"n1", nullptr, with_topo_file("")});
  const RawOutput unset = nccl_topo::NcclTopoFileOutput({"n1", nullptr, DefaultRunOptions()});
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(copied.ok()) << copied.detail;
  EXPECT_EQ(copied.text, kOneGpuFile);
  EXPECT_NE(copied.origin.find("NCCL_TOPO_FILE"), std::string::npos);
  EXPECT_EQ(missing.status, ProbeStatus::kFailed);
  EXPECT_NE(missing.detail.find("missing.xml but the file cannot be read"), std::string::npos) << missing.detail;
  EXPECT_EQ(empty.status, ProbeStatus::kAbsent);
  EXPECT_EQ(unset.status, ProbeStatus::kAbsent);
  EXPECT_NE(unset.detail.find("NCCL_TOPO_FILE is not set"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::nccl_topology
