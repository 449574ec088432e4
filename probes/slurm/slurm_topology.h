// Parser for `scontrol show topology`: what the site told Slurm about which nodes share a leaf
// switch (topology/tree) or a block (topology/block), as the isolation planner's seed groups.
// Pure: text in, groups out, or an error naming origin:line.
//
// The formats, as Slurm prints them (one record a line):
// - topology/tree, src/plugins/topology/tree/topology_tree.c _print_topo_record:
//     "SwitchName=%s Level=%u LinkSpeed=%u" then " Nodes=%s" and " Switches=%s" where set.
//   An inner switch lists Switches= and also Nodes= (every node below it). What Slurm 22.05.8
//   (Debian 12) printed on the local cluster (ci/cluster up --nodes 8):
//     SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=node[1-4]
//     SwitchName=leaf2 Level=0 LinkSpeed=1 Nodes=node[5-8]
//     SwitchName=spine Level=1 LinkSpeed=1 Nodes=node[1-8] Switches=leaf[1-2]
//   Older releases (src/api/topo_info.c slurm_print_topo_record) end each field with a space
//   and cut the line at 512 characters (511 printed) unless SLURM_TOPO_LEN is larger.
// - topology/block (23.11 and later), src/plugins/topology/block/topology_block.c
//   _print_topo_record: "BlockName=%s BlockIndex=%u" then " Nodes=%s" where set; later
//   versions add fields such as BlockSize=.
// - No topology: scontrol exits 0, prints nothing on stdout and Slurm's error() on stderr,
//   "scontrol: error: No topology information available" (22.05 on the local cluster with 3
//   nodes); either gives no groups.
// Where SLURM_TOPO_LEN is set, scontrol cuts every line at that many characters without a word
// (22.05 with SLURM_TOPO_LEN=45: "SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=no"), which no
// parser can tell from a node named "no": run it with SLURM_TOPO_LEN=1000000, which keeps lines
// whole in every release. A hostlist cut inside its brackets is an error.
#pragma once

#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::slurm {

// One group a leaf switch (a SwitchName= line without Switches=), named after it, with its
// expanded Nodes= and as parent the first switch whose Switches= names it ("" for none); one a
// block (BlockName= with Nodes=), parent "". Groups keep the output's order. A node on two
// leaves stays in both: the planner keeps its first group. Inner switches are parents only.
// Unknown Key=value fields are ignored (Slurm adds fields across versions); a line that is
// neither a switch nor a block nor the no-topology message, a record without a name, a leaf
// without Nodes= or a hostlist that does not expand is an error naming origin:line.
// A leaf switch or a block and its nodes (the isolation planner takes these as its seed groups).
struct TopologyGroup {
  std::string name;                // "leaf1", "block2"
  std::vector<std::string> nodes;  // expanded, in Slurm's order
  std::string parent;              // the switch whose Switches= names it; empty for a block or the top
};

Result<std::vector<TopologyGroup>> ParseSlurmTopology(const std::string& text, const std::string& origin);

}  // namespace gpuconform::slurm
