#include "suites/interfaces/interfaces_checks.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "harness/core/cluster_raw.h"
#include "harness/core/snapshot_source.h"
#include "harness/core/suite_registry.h"
#include "probes/iproute/iproute_parse.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::interfaces {

using namespace gpuconform::iproute;
namespace {

const std::string kFixtures = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots";

// node1 of the local cluster (ci/cluster), as `ip -o` printed it.
const std::string kLink =
    "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\\    "
    "link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
    "2: eth0@if191: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc tbf state UP mode DEFAULT group default qlen "
    "1000\\    link/ether c2:75:6c:1f:4c:25 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n"
    "3: ens1@if192: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen "
    "1000\\    link/ether a2:7e:db:20:9e:a1 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n";
const std::string kAddr =
    "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n"
    "1: lo    inet6 ::1/128 scope host \\       valid_lft forever preferred_lft forever\n"
    "2: eth0    inet 10.10.0.1/24 scope global eth0\\       valid_lft forever preferred_lft forever\n"
    "3: ens1    inet 10.20.0.1/24 scope global ens1\\       valid_lft forever preferred_lft forever\n"
    "3: ens1    inet6 fe80::a07e:dbff:fe20:9ea1/64 scope link tentative \\       valid_lft forever preferred_lft forever\n";

Profile Local() {
  auto profile = LoadProfile("local");
  EXPECT_TRUE(profile) << profile.error();
  return *profile;
}

std::vector<Interface> Parse(const std::string& link, const std::string& addr) {
  auto links = ParseIpLink(link, "ip-link.txt");
  EXPECT_TRUE(links) << links.error();
  auto addresses = ParseIpAddr(addr, "ip-addr.txt");
  EXPECT_TRUE(addresses) << addresses.error();
  return MergeLinksAndAddresses(*links, *addresses);
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(InterfacesParse, ReadsTheLocalClustersRealOutput) {
  const auto interfaces = Parse(kLink, kAddr);
  ASSERT_EQ(interfaces.size(), 3u);
  EXPECT_EQ(interfaces[2].name, "ens1");
  EXPECT_TRUE(interfaces[2].IsUp());
  EXPECT_EQ(interfaces[2].mtu, 1500);
  ASSERT_EQ(interfaces[2].ipv4.size(), 1u);
  EXPECT_EQ(interfaces[2].ipv4[0].text, "10.20.0.1/24");
  EXPECT_EQ(FormatNetwork(interfaces[2].ipv4[0]), "10.20.0.0/24");
  EXPECT_EQ(interfaces[2].ipv6.size(), 1u);
  EXPECT_TRUE(interfaces[0].IsUp());  // lo: UNKNOWN with LOWER_UP
}

TEST(InterfacesParse, GarbageIsAnErrorNamingOriginAndLine) {
  test_support::ExpectErrorStartingWith(
      ParseIpLink("1: lo: <LOOPBACK,UP> mtu 65536\nIllegal instruction\n", "n1/ip-link.txt"), "n1/ip-link.txt:2: ");
  test_support::ExpectErrorStartingWith(
      ParseIpAddr("3: ens1    inet 10.20.0.300/24 scope global ens1\n", "n1/ip-addr.txt"), "n1/ip-addr.txt:1: ");
  EXPECT_FALSE(ParseIpLink("", "o"));
  EXPECT_FALSE(ParseIpv4Cidr("1.2.3.4.5/8"));
  EXPECT_FALSE(ParseIpv4Cidr("1.2.3.4/33"));
}

TEST(InterfacesParse, SurvivesRandomBytesAndTruncation) {
  test_support::ForEachNoisyString(
      {.seed = 4242, .count = 3000, .max_extra = 101, .starts = {"3: ens1@if1: <", "3: ens1    inet "}},
      [](const std::string& bytes) {
        (void)ParseIpLink(bytes, "fuzz");
        (void)ParseIpAddr(bytes, "fuzz");
      });
  for (std::size_t length = 0; length <= kAddr.size(); ++length) {
    (void)ParseIpAddr(kAddr.substr(0, length), "cut");
    (void)ParseIpLink(kLink.substr(0, std::min(length, kLink.size())), "cut");
  }
  SUCCEED();
}

TEST(InterfacesChecks, LocalClusterNodeConforms) {
  const auto interfaces = Parse(kLink, kAddr);
  EXPECT_EQ(CheckFabricInterfaceUp("node1", interfaces, Local()).verdict, Verdict::kPass);
  EXPECT_EQ(CheckForbiddenInterfacesNotFabric("node1", interfaces, Local()).verdict, Verdict::kPass);
}

TEST(InterfacesChecks, MissingFabricInterfaceFailsListingWhatExists) {
  const auto interfaces = Parse(Replace(kLink, "ens1@if192", "ens2@if192"), Replace(kAddr, "3: ens1    inet ", "3: ens2    inet "));
  const auto r = CheckFabricInterfaceUp("node1", interfaces, Local());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].message.rfind("node1: no interface ens1 (profile local nccl.socket_ifname); the node has lo, "
                                        "eth0, ens2",
                                        0),
            0u)
      << r.findings[0].message;
}

TEST(InterfacesChecks, DownFabricInterfaceFails) {
  const auto interfaces =
      Parse(Replace(Replace(kLink, "ens1@if192: <BROADCAST,MULTICAST,UP,LOWER_UP>", "ens1@if192: <BROADCAST,MULTICAST>"),
                    "noqueue state UP", "noqueue state DOWN"),
            kAddr);
  const auto r = CheckFabricInterfaceUp("node1", interfaces, Local());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].code, "fabric-interface-down");
  EXPECT_NE(r.findings[0].message.find("ip link set ens1 up"), std::string::npos);
}

TEST(InterfacesChecks, FabricWithoutIpv4Fails) {
  const auto interfaces =
      Parse(kLink, Replace(kAddr, "3: ens1    inet 10.20.0.1/24 scope global ens1\\       valid_lft forever "
                                  "preferred_lft forever\n",
                           ""));
  const auto r = CheckFabricInterfaceUp("node1", interfaces, Local());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].code, "no-address");
}

TEST(InterfacesChecks, ForbiddenInterfaceInTheFabricSubnetFails) {
  const auto interfaces = Parse(kLink, Replace(kAddr, "inet 10.10.0.1/24 scope global eth0", "inet 10.20.0.9/16 scope global eth0"));
  const auto r = CheckForbiddenInterfacesNotFabric("node1", interfaces, Local());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].entity, "node1/eth0");
  EXPECT_NE(r.findings[0].message.find("traffic to the fabric may leave over eth0"), std::string::npos);
  Profile contradictory = Local();
  contradictory.nccl->forbidden_ifnames = {"ens1"};
  EXPECT_EQ(CheckForbiddenInterfacesNotFabric("node1", Parse(kLink, kAddr), contradictory).findings[0].code,
            "fabric-is-forbidden");
}

TEST(InterfacesChecks, SubnetSplitAndDuplicateAddressFailTheClusterCase) {
  NodeFacts<std::vector<Interface>> nodes;
  nodes.read.emplace("node1", Parse(kLink, kAddr));
  nodes.read.emplace("node2", Parse(kLink, Replace(kAddr, "10.20.0.1/24", "10.21.0.2/24")));
  nodes.read.emplace("node3", Parse(kLink, kAddr));
  const auto r = CheckFabricSubnetShared(nodes, Local());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].code, "split-subnet");
  EXPECT_NE(r.findings[0].message.find("10.21.0.0/24: node2 10.21.0.2/24"), std::string::npos) << r.findings[0].message;
  EXPECT_EQ(r.findings[1].code, "duplicate-address");
  EXPECT_EQ(r.findings[1].message.rfind("node1, node3 share one ens1 address", 0), 0u);
}

NodeFacts<std::vector<Interface>> ThreeNodes(const std::string& node2_link) {
  NodeFacts<std::vector<Interface>> nodes;
  nodes.read.emplace("node1", Parse(kLink, kAddr));
  nodes.read.emplace("node2", Parse(node2_link, Replace(kAddr, "10.20.0.1/24", "10.20.0.2/24")));
  nodes.read.emplace("node3", Parse(kLink, Replace(kAddr, "10.20.0.1/24", "10.20.0.3/24")));
  return nodes;
}

TEST(InterfacesFabricMtuConsistent, OneNodesSmallerFabricMtuFailsNamingNodeAndBothValues) {
  EXPECT_EQ(CheckFabricMtuConsistent(ThreeNodes(kLink), Local()).verdict, Verdict::kPass);
  const auto r =
      CheckFabricMtuConsistent(ThreeNodes(Replace(kLink, "ens1@if192: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500",
                                                  "ens1@if192: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1400")),
                               Local());
  test_support::ExpectOnlyFinding(r, "node2/ens1", "node2: ens1 MTU 1400, expected 1500 (profile local nccl.mtu)");
  EXPECT_EQ(r.findings[0].code, ReasonCode("mtu-mismatch"));
  EXPECT_NE(r.findings[0].message.find("ip link set ens1 mtu 1500"), std::string::npos);
}

TEST(InterfacesFabricMtuConsistent, WithoutAProfileMtuTheMajorityDecides) {
  Profile profile = Local();
  profile.nccl->mtu = 0;
  const std::string jumbo = Replace(kLink, "mtu 1500 qdisc noqueue", "mtu 9000 qdisc noqueue");
  const auto r = CheckFabricMtuConsistent(ThreeNodes(jumbo), profile);
  test_support::ExpectOnlyFinding(r, "node2/ens1", "node2: ens1 MTU 9000, expected 1500 (the MTU of node1, node3)");
  // All nodes at 9000 agree: without nccl.mtu that conforms; with nccl.mtu: 1500 all three fail.
  NodeFacts<std::vector<Interface>> all_jumbo;
  for (const std::string node : {"node1", "node2", "node3"}) all_jumbo.read.emplace(node, Parse(jumbo, kAddr));
  EXPECT_EQ(CheckFabricMtuConsistent(all_jumbo, profile).verdict, Verdict::kPass);
  EXPECT_EQ(CheckFabricMtuConsistent(all_jumbo, Local()).findings.size(), 3u);
}

TEST(InterfacesFabricMtuConsistent, IpoibInterfacesAgreeAmongThemselves) {
  const std::string ib0 =
      "4: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 4092 qdisc mq state UP mode DEFAULT group "
      "default qlen 256\\    link/infiniband 00:00:10:29:fe:80:00:00:00:00:00:00 brd "
      "00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff\n";
  NodeFacts<std::vector<Interface>> nodes;
  nodes.read.emplace("node1", Parse(kLink + ib0, kAddr));
  nodes.read.emplace("node2",
                Parse(kLink + Replace(ib0, "mtu 4092", "mtu 2044"), Replace(kAddr, "10.20.0.1/24", "10.20.0.2/24")));
  nodes.read.emplace("node3", Parse(kLink + ib0, Replace(kAddr, "10.20.0.1/24", "10.20.0.3/24")));
  EXPECT_EQ(nodes.read.at("node1").back().link_type, "infiniband");
  const auto r = CheckFabricMtuConsistent(nodes, Local());
  test_support::ExpectOnlyFinding(r, "node2/ib0", "node2: ib0 MTU 2044, expected 4092 (the MTU of node1, node3)");
}

TEST(InterfacesFabricMtuConsistent, UnreadableNodeIsAnErrorAndNoFabricAnywhereSkips) {
  auto nodes = ThreeNodes(kLink);
  nodes.read.erase("node3");
  nodes.unread.emplace("node3", "node3/ip-link.txt:1: expected `ip -o link show` output");
  const auto r = CheckFabricMtuConsistent(nodes, Local());
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_NE(r.findings[0].message.find("node3/ip-link.txt:1"), std::string::npos) << r.findings[0].message;
  NodeFacts<std::vector<Interface>> no_fabric;
  no_fabric.read.emplace("node1", Parse(Replace(kLink, "ens1@if192", "ens9@if192"), kAddr));
  EXPECT_EQ(CheckFabricMtuConsistent(no_fabric, Local()).verdict, Verdict::kSkip);
}

// The suite skips the fabric checks before reading anything where the profile names no fabric
// interface; where it does, a node whose `ip` could not run is each per-node check's error with
// the probe's own status, and the cluster checks' error naming the node.
TEST(InterfacesChecks, ProfileWithoutFabricInterfaceSkipsAndUnreadInterfacesAreErrors) {
  auto h100 = LoadProfile("h100-sxm-8");
  ASSERT_TRUE(h100);
  const ClusterRaw raw = test_support::RawOf(
      {{"n", {{"ip-link", {ProbeStatus::kToolMissing, "", "", "n: `ip` is not installed"}}}}});
  for (const char* check : {kFabricInterfaceUp, kFabricSubnetShared}) {
    const auto skipped = test_support::JudgeRegisteredOnce(kSuite, check, raw, *h100);
    EXPECT_EQ(skipped.verdict, Verdict::kSkip) << check;
    EXPECT_EQ(skipped.findings[0].message, "profile h100-sxm-8 names no fabric socket interface (nccl.socket_ifname)");
  }
  for (const char* check : {kFabricInterfaceUp, kForbiddenInterfacesNotFabric}) {
    const auto r = test_support::JudgeRegisteredOnce(kSuite, check, raw, Local());
    EXPECT_EQ(r.TestName(), std::string("Interfaces.") + check + "/n");
    EXPECT_EQ(r.verdict, Verdict::kError) << check;
    EXPECT_EQ(r.findings[0].code, ReasonCode("tool-missing")) << check;
    EXPECT_EQ(r.findings[0].entity, "n");
    EXPECT_EQ(r.findings[0].message, "n: `ip` is not installed");
  }
  const auto subnet = test_support::JudgeRegisteredOnce(kSuite, kFabricSubnetShared, raw, Local());
  EXPECT_EQ(subnet.verdict, Verdict::kError);
  EXPECT_EQ(subnet.findings[0].code, ReasonCode("unparseable"));
  EXPECT_EQ(subnet.findings[0].entity, "cluster");
  EXPECT_EQ(subnet.findings[0].message, "n: `ip` is not installed");
}

std::map<std::string, Verdict> JudgeSnapshot(const std::string& name) {
  return test_support::VerdictsByCase(test_support::EvaluateSuiteOnSnapshot(kSuite, kFixtures + "/" + name, Local()));
}

TEST(InterfacesFixtures, LocalClusterCaptureConformsAndBrokenOneFailsTheRightCases) {
  std::map<std::string, Verdict> healthy;
  for (const std::string node : {"node1", "node2", "node3"}) {
    healthy["FabricInterfaceUp/" + node] = Verdict::kPass;
    healthy["ForbiddenInterfacesNotFabric/" + node] = Verdict::kPass;
  }
  healthy["FabricSubnetShared"] = Verdict::kPass;
  healthy["FabricMtuConsistent"] = Verdict::kPass;
  healthy["FabricReachable"] = Verdict::kPass;
  EXPECT_EQ(JudgeSnapshot("nccl-local-3node-interfaces"), healthy);
  auto mtu = healthy;
  mtu["FabricMtuConsistent"] = Verdict::kFail;
  EXPECT_EQ(JudgeSnapshot("nccl-local-mtu-mismatch"), mtu);
  auto broken = healthy;
  broken["FabricReachable"] = Verdict::kError;  // recorded before the reachability probe: no fabric-reach.txt
  broken["FabricInterfaceUp/node3"] = Verdict::kFail;
  broken["FabricSubnetShared"] = Verdict::kFail;
  broken["ForbiddenInterfacesNotFabric/node1"] = Verdict::kFail;
  EXPECT_EQ(JudgeSnapshot("nccl-local-ens1-down"), broken);
}

}  // namespace
}  // namespace gpuconform::interfaces
