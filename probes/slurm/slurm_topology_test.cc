#include "probes/slurm/slurm_topology.h"

#include <gtest/gtest.h>

namespace gpuconform::slurm {
namespace {

std::vector<TopologyGroup> Parse(const std::string& text) {
  auto groups = ParseSlurmTopology(text, "topo.txt");
  EXPECT_TRUE(groups.ok()) << groups.error();
  return groups.ok() ? groups.value() : std::vector<TopologyGroup>{};
}

void ExpectGroup(const TopologyGroup& group, const std::string& name, const std::vector<std::string>& nodes,
                 const std::string& parent) {
  EXPECT_EQ(group.name, name);
  EXPECT_EQ(group.nodes, nodes) << name;
  EXPECT_EQ(group.parent, parent) << name;
}

// What Slurm 22.05.8 printed on the local cluster (ci/cluster up --nodes 8): the spine lists
// every node below it as well as its switches.
const std::string kLocalCluster8 =
    "SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=node[1-4]\n"
    "SwitchName=leaf2 Level=0 LinkSpeed=1 Nodes=node[5-8]\n"
    "SwitchName=spine Level=1 LinkSpeed=1 Nodes=node[1-8] Switches=leaf[1-2]\n";

TEST(SlurmTopology, TreeLeavesBecomeGroupsUnderTheirSpine) {
  const auto groups = Parse(kLocalCluster8);
  ASSERT_EQ(groups.size(), 2u) << "the spine is a parent, not a group";
  ExpectGroup(groups[0], "leaf1", {"node1", "node2", "node3", "node4"}, "spine");
  ExpectGroup(groups[1], "leaf2", {"node5", "node6", "node7", "node8"}, "spine");
  // Older releases (src/api/topo_info.c) end every field with a space.
  const auto older = Parse(
      "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=tux[0-1] \n"
      "SwitchName=s1 Level=1 LinkSpeed=1 Nodes=tux[0-1] Switches=s0 \n");
  ASSERT_EQ(older.size(), 1u);
  ExpectGroup(older[0], "s0", {"tux0", "tux1"}, "s1");
}

// The parent may come before its children, and a leaf may hang under no switch at all.
TEST(SlurmTopology, TwoLevelsAboveTheLeavesNameTheNearestSwitch) {
  const auto groups = Parse(
      "SwitchName=core Level=2 LinkSpeed=100 Nodes=gpu[001-006] Switches=spine[1-2]\n"
      "SwitchName=s1a Level=0 LinkSpeed=100 Nodes=gpu[001-002]\n"
      "SwitchName=spine1 Level=1 LinkSpeed=100 Nodes=gpu[001-004] Switches=s1a,s1b\n"
      "SwitchName=s1b Level=0 LinkSpeed=100 Nodes=gpu[003-004]\n"
      "SwitchName=spine2 Level=1 LinkSpeed=100 Nodes=gpu[005-006] Switches=s2a\n"
      "SwitchName=s2a Level=0 LinkSpeed=100 Nodes=gpu005,gpu006\n"
      "SwitchName=lonely Level=0 LinkSpeed=1 Nodes=gpu007\n");
  ASSERT_EQ(groups.size(), 4u);
  ExpectGroup(groups[0], "s1a", {"gpu001", "gpu002"}, "spine1");
  ExpectGroup(groups[1], "s1b", {"gpu003", "gpu004"}, "spine1");
  ExpectGroup(groups[2], "s2a", {"gpu005", "gpu006"}, "spine2");
  ExpectGroup(groups[3], "lonely", {"gpu007"}, "");
}

// topology/block (23.11+): "BlockName=%s BlockIndex=%u Nodes=%s", later with BlockSize= and
// other fields this parser does not know; a block without nodes seeds nothing.
TEST(SlurmTopology, BlocksAreGroupsWithoutParentAndUnknownFieldsAreIgnored) {
  const auto groups = Parse(
      "BlockName=block1 BlockIndex=0 Nodes=node[1-4] BlockSize=4\n"
      "BlockName=block2 BlockIndex=1 Nodes=node[5-6,8] BlockSize=4 Future=yes\r\n"
      "BlockName=block3 BlockIndex=2 BlockSize=4\n");
  ASSERT_EQ(groups.size(), 2u);
  ExpectGroup(groups[0], "block1", {"node1", "node2", "node3", "node4"}, "");
  ExpectGroup(groups[1], "block2", {"node5", "node6", "node8"}, "");
}

TEST(SlurmTopology, NoTopologyIsNoGroupsNotAnError) {
  EXPECT_TRUE(Parse("").empty());
  EXPECT_TRUE(Parse("\n  \n").empty());
  // Slurm's error() as scontrol 22.05 printed it on stderr (exit status 0) on the local
  // cluster with 3 nodes and no TopologyPlugin, and the bare message.
  EXPECT_TRUE(Parse("scontrol: error: No topology information available\n").empty());
  EXPECT_TRUE(Parse("No topology information available").empty());
}

TEST(SlurmTopology, AnyOtherLineIsAnErrorNamingIt) {
  const auto garbage =
      ParseSlurmTopology(kLocalCluster8 + "slurm_load_topo error: Unable to contact slurm controller\n", "topo.txt");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.error().find("topo.txt:4:"), std::string::npos) << garbage.error();
  EXPECT_NE(garbage.error().find("slurm_load_topo error"), std::string::npos) << garbage.error();
  EXPECT_FALSE(ParseSlurmTopology(std::string("\0\xff\n", 3), "t").ok());
  EXPECT_FALSE(ParseSlurmTopology("switchname=leaf1 Nodes=node1\n", "t").ok()) << "Slurm prints the key capitalised";
}

TEST(SlurmTopology, BrokenRecordsAreErrorsNamingTheLine) {
  const auto unnamed = ParseSlurmTopology("SwitchName= Level=0 Nodes=node1\n", "t");
  ASSERT_FALSE(unnamed.ok());
  EXPECT_NE(unnamed.error().find("t:1:"), std::string::npos) << unnamed.error();
  const auto childless = ParseSlurmTopology(kLocalCluster8 + "SwitchName=leaf3 Level=0 LinkSpeed=1\n", "t");
  ASSERT_FALSE(childless.ok());
  EXPECT_NE(childless.error().find("t:4: switch leaf3 lists neither Nodes= nor Switches="), std::string::npos)
      << childless.error();
  const auto bad_range = ParseSlurmTopology("BlockName=b1 BlockIndex=0 Nodes=node[4-1]\n", "t");
  ASSERT_FALSE(bad_range.ok());
  EXPECT_NE(bad_range.error().find("t:1: block b1 Nodes=:"), std::string::npos) << bad_range.error();
}

// Older releases cut a tree line at 512 characters (511 printed) unless SLURM_TOPO_LEN is
// larger; a hostlist cut inside its brackets says so.
TEST(SlurmTopology, ALineCutAtSlurmsLimitSaysHowToGetItWhole) {
  std::string line = "SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=node[1";
  for (int n = 3; line.size() < 511; n += 2) line += "," + std::to_string(n);
  line.resize(511);
  const auto cut = ParseSlurmTopology(line + "\n", "t");
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.error().find("SLURM_TOPO_LEN"), std::string::npos) << cut.error();
  const auto short_bad = ParseSlurmTopology("SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=node[1\n", "t");
  ASSERT_FALSE(short_bad.ok());
  EXPECT_EQ(short_bad.error().find("SLURM_TOPO_LEN"), std::string::npos) << short_bad.error();
}

// A node wired to two leaves (a dual-homed node, or a typo in topology.conf, which Slurm only
// warns about) stays in both groups, in the output's order: the planner keeps its first group.
TEST(SlurmTopology, ANodeOnTwoLeavesIsLeftToThePlanner) {
  const auto groups = Parse(
      "SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=node[1-3]\n"
      "SwitchName=leaf2 Level=0 LinkSpeed=1 Nodes=node[3-5]\n"
      "SwitchName=spine Level=1 LinkSpeed=1 Nodes=node[1-5] Switches=leaf[1-2]\n"
      "SwitchName=spine2 Level=1 LinkSpeed=1 Nodes=node[3-5] Switches=leaf2\n");
  ASSERT_EQ(groups.size(), 2u);
  ExpectGroup(groups[0], "leaf1", {"node1", "node2", "node3"}, "spine");
  ExpectGroup(groups[1], "leaf2", {"node3", "node4", "node5"}, "spine");  // the first switch naming it
}

}  // namespace
}  // namespace gpuconform::slurm
