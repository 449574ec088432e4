// The fabric reachability probe's output: its parse, its reader, and the probe run for real on
// the loopback interface in one process.
#include "probes/fabric_reach/fabric_reach_parse.h"

#include <gtest/gtest.h>

#include "harness/world/gather.h"
#include "harness/world/world.h"
#include "probes/fabric_reach/fabric_reach_facts.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "tests/support/test_support.h"

namespace gpuconform::fabric_reach {
namespace {

const std::string kNode1 =
    "fabric-reach version=1 node=node1 ifname=ens1 addr=10.20.0.1 port=4000\n"
    "reach to=node2 addr=10.20.0.2:4000 result=ok ms=0.4\n"
    "reach to=node3 addr=10.20.0.3:4000 result=failed ms=3000.0 error=\"No route to host\"\n";

TEST(FabricReachParse, ReadsEveryAttempt) {
  const auto reach = test_support::Parsed(ParseReach(kNode1, "node1/fabric-reach.txt"));
  EXPECT_EQ(reach.node, "node1");
  EXPECT_EQ(reach.address, "10.20.0.1");
  ASSERT_EQ(reach.attempts.size(), 2u);
  EXPECT_TRUE(reach.attempts[0].ok);
  EXPECT_FALSE(reach.attempts[1].ok);
  EXPECT_EQ(reach.attempts[1].address, "10.20.0.3:4000");
  EXPECT_EQ(reach.attempts[1].error, "No route to host");
  EXPECT_DOUBLE_EQ(reach.attempts[1].ms, 3000.0);
}

TEST(FabricReachParse, GarbageIsAnErrorWithTheLineAndNeverCrashes) {
  auto wrong = ParseReach("hello\n", "n/fabric-reach.txt");
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().find("n/fabric-reach.txt:1:"), std::string::npos);
  test_support::ExpectErrorContaining(ParseReach("fabric-reach version=1 node=a\nbogus x=1\n", "n/f.txt"),
                                      "n/f.txt:2:");
  test_support::SurvivesTruncationAndNoise(kNode1, ParseReach);
}

// The reader parses a node's output once per run, and says why a node has none.
TEST(FabricReachFacts, ParsesOnceAndNamesAMissingFile) {
  ClusterRaw raw;
  raw.nodes = {"node1", "node2"};
  raw.node["node1"][FabricReachProbe().id] = {ProbeStatus::kOk, kNode1, "", ""};
  const auto first = ReadReach(raw, "node1");
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->attempts.size(), 2u);
  raw.node["node1"][FabricReachProbe().id].text = "garbage\n";
  const auto again = ReadReach(raw, "node1");
  ASSERT_TRUE(again) << "parsed again instead of served from the cache: " << again.error();
  EXPECT_EQ(again->attempts.size(), 2u);
  const auto missing = ReadReach(raw, "node2");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "node2: no fabric-reach.txt in the snapshot");
}

TEST(FabricReachProbe, ListensOnTheFabricInterfaceForReal) {
  Profile profile = test_support::SocketFabricProfile("test", "lo");
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
}  // namespace gpuconform::fabric_reach
