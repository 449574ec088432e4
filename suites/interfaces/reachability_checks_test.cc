// Fabric reachability: the check made to fail, and where it does not apply. (The parse and the
// probe run for real are tested beside them, in probes/fabric_reach.)
#include "suites/interfaces/reachability_checks.h"

#include <gtest/gtest.h>

#include "suites/interfaces/interfaces_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::interfaces {

using namespace gpuconform::fabric_reach;
namespace {

Profile FabricProfile() { return test_support::SocketFabricProfile("test", "ens1"); }

std::string NodeText(const std::string& node, const std::vector<std::string>& others, const std::string& broken = "") {
  std::string text = "fabric-reach version=1 node=" + node + " ifname=ens1 addr=10.20.0." + node.substr(4) + " port=4000\n";
  for (const auto& other : others) {
    text += "reach to=" + other + " addr=10.20.0." + other.substr(4) + ":4000 ";
    text += other == broken ? "result=failed ms=3000.0 error=\"No route to host\"\n" : "result=ok ms=0.4\n";
  }
  return text;
}

NodeFacts<NodeReach> Cluster(const std::string& broken_from = "", const std::string& broken_to = "") {
  NodeFacts<NodeReach> nodes;
  const std::vector<std::string> all = {"node1", "node2", "node3"};
  for (const auto& node : all) {
    std::vector<std::string> others;
    for (const auto& other : all) {
      if (other != node) others.push_back(other);
    }
    nodes.Add(node, ParseReach(NodeText(node, others, node == broken_from ? broken_to : ""), node + "/fabric-reach.txt"));
  }
  return nodes;
}

TEST(FabricReachable, EveryPairConnectedConforms) {
  const CheckResult result = CheckFabricReachable(Cluster(), FabricProfile());
  EXPECT_EQ(result.verdict, Verdict::kPass) << test_support::Describe({result});
}

TEST(FabricReachable, OnePairCutOffFailsNamingBothNodesAndTheAddress) {
  const CheckResult result = CheckFabricReachable(Cluster("node1", "node3"), FabricProfile());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].entity, "node1->node3");
  EXPECT_NE(result.findings[0].message.find("node1 cannot connect to node3 at 10.20.0.3:4000 on ens1 (No route to host"),
            std::string::npos)
      << result.findings[0].message;
}

TEST(FabricReachable, NodeWithoutAFabricAddressIsNotAPass) {
  auto nodes = Cluster();
  nodes.read.erase("node3");
  nodes.Add("node3", ParseReach("fabric-reach version=1 node=node3 ifname=ens1 addr=none "
                                "problem=\"ens1 has no IPv4 address on node3\"\n",
                                "node3/fabric-reach.txt"));
  const CheckResult result = CheckFabricReachable(nodes, FabricProfile());
  EXPECT_NE(result.verdict, Verdict::kPass);
  EXPECT_NE(test_support::Describe({result}).find("ens1 has no IPv4 address on node3"), std::string::npos)
      << test_support::Describe({result});
}

// A node whose view could not be read is untested, in its place among the nodes; where another
// pair failed, the untested nodes follow the failure.
TEST(FabricReachable, AnUnreadNodeIsUntestedInNodeOrder) {
  auto nodes = Cluster("node3", "node1");
  nodes.read.erase("node2");
  nodes.unread.emplace("node2", "node2: no fabric-reach.txt in the snapshot");
  const CheckResult result = CheckFabricReachable(nodes, FabricProfile());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u) << test_support::Describe({result});
  EXPECT_EQ(result.findings[0].entity, "node3->node1");
  EXPECT_EQ(result.findings[1].code, "untested");
  EXPECT_EQ(result.findings[1].message, "node2: no fabric-reach.txt in the snapshot");
  nodes = Cluster();
  nodes.read.erase("node2");
  nodes.unread.emplace("node2", "node2: no fabric-reach.txt in the snapshot");
  nodes.read.at("node3").skipped = "no fabric interface";
  const CheckResult untested = CheckFabricReachable(nodes, FabricProfile());
  ASSERT_EQ(untested.verdict, Verdict::kError);
  ASSERT_EQ(untested.findings.size(), 2u);
  EXPECT_EQ(untested.findings[0].message, "node2: no fabric-reach.txt in the snapshot");
  EXPECT_EQ(untested.findings[1].message, "node3: not tested: no fabric interface");
}

TEST(FabricReachable, OneNodeOrNoFabricInterfaceSkipsSayingWhy) {
  auto one = Cluster();
  one.read.erase("node2");
  one.read.erase("node3");
  EXPECT_EQ(CheckFabricReachable(one, FabricProfile()).verdict, Verdict::kSkip);
  // Without a fabric interface the suite skips the check before reading any node's view.
  Profile bare;
  bare.name = "bare";
  const ClusterRaw raw = test_support::RawOf({{"node1", {}}, {"node2", {}}});
  const CheckResult skipped = test_support::JudgeRegisteredOnce(kSuite, kFabricReachable, raw, bare);
  EXPECT_EQ(skipped.TestName(), "Interfaces.FabricReachable");
  EXPECT_EQ(skipped.verdict, Verdict::kSkip);
  EXPECT_EQ(skipped.findings[0].message, "the profile names no fabric interface (nccl.socket_ifname)");
  const CheckResult unread = test_support::JudgeRegisteredOnce(kSuite, kFabricReachable, raw, FabricProfile());
  ASSERT_EQ(unread.verdict, Verdict::kError);
  EXPECT_EQ(unread.findings[0].message, "node1: no fabric-reach.txt in the snapshot");
}

}  // namespace
}  // namespace gpuconform::interfaces
