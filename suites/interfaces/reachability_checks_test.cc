// Fabric reachability: the parse, the check made to fail, and the probe run for real on
// the loopback interface in one process.
#include <gtest/gtest.h>

#include "harness/gather.h"
#include "harness/world.h"
#include "suites/interfaces/reachability.h"
#include "probes/fabric_reach/reachability_probe.h"
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

std::map<std::string, Result<NodeReach>> Cluster(const std::string& broken_from = "", const std::string& broken_to = "") {
  std::map<std::string, Result<NodeReach>> nodes;
  const std::vector<std::string> all = {"node1", "node2", "node3"};
  for (const auto& node : all) {
    std::vector<std::string> others;
    for (const auto& other : all) {
      if (other != node) others.push_back(other);
    }
    nodes.emplace(node, ParseReach(NodeText(node, others, node == broken_from ? broken_to : ""), node + "/fabric-reach.txt"));
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
  nodes.erase("node3");
  nodes.emplace("node3", ParseReach("fabric-reach version=1 node=node3 ifname=ens1 addr=none "
                                    "problem=\"ens1 has no IPv4 address on node3\"\n",
                                    "node3/fabric-reach.txt"));
  const CheckResult result = CheckFabricReachable(nodes, FabricProfile());
  EXPECT_NE(result.verdict, Verdict::kPass);
  EXPECT_NE(test_support::Describe({result}).find("ens1 has no IPv4 address on node3"), std::string::npos)
      << test_support::Describe({result});
}

TEST(FabricReachable, OneNodeOrNoFabricInterfaceSkipsSayingWhy) {
  auto one = Cluster();
  one.erase("node2");
  one.erase("node3");
  EXPECT_EQ(CheckFabricReachable(one, FabricProfile()).verdict, Verdict::kSkip);
  Profile bare;
  bare.name = "bare";
  EXPECT_EQ(CheckFabricReachable(Cluster(), bare).verdict, Verdict::kSkip);
}

TEST(FabricReachable, GarbageIsAnErrorWithTheLineAndNeverCrashes) {
  auto wrong = ParseReach("hello\n", "n/fabric-reach.txt");
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().find("n/fabric-reach.txt:1:"), std::string::npos);
  test_support::ExpectErrorContaining(ParseReach("fabric-reach version=1 node=a\nbogus x=1\n", "n/f.txt"),
                                      "n/f.txt:2:");
  test_support::SurvivesTruncationAndNoise(NodeText("node1", {"node2", "node3"}, "node3"), ParseReach);
}

TEST(FabricReachProbe, ListensOnTheFabricInterfaceForReal) {
  Profile profile = FabricProfile();
  profile.nccl->socket_ifname = "lo";
  const World world = World::Single();
  const CollectiveContext context{world, &profile, "node1", true, {"node1"}};
  const RawOutput out = MeasureFabricMesh(context).output;
  ASSERT_TRUE(out.ok());
  auto reach = ParseReach(out.text, "probe");
  ASSERT_TRUE(reach) << reach.error() << "\n" << out.text;
  EXPECT_EQ(reach->address, "127.0.0.1") << out.text;
  EXPECT_TRUE(reach->problem.empty()) << reach->problem;
  EXPECT_TRUE(reach->attempts.empty()) << "one node: no one else to reach";
  profile.nccl->socket_ifname = "no-such-if0";
  auto missing = ParseReach(MeasureFabricMesh(context).output.text, "probe");
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->problem.find("no-such-if0 has no IPv4 address on node1"), std::string::npos) << missing->problem;
}

}  // namespace
}  // namespace gpuconform::interfaces
