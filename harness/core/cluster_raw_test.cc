// ClusterRaw merging: rank 0 merges one part per rank, so merging must keep the node list
// sorted and unique, let a later part win, and release what a node held once it is judged.
#include "harness/core/cluster_raw.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpuconform {
namespace {

ClusterRaw Part(const std::string& node, const std::string& text) {
  ClusterRaw part;
  part.nodes = {node};
  part.node[node]["uname-r"] = {ProbeStatus::kOk, text, node + "/uname-r.txt", ""};
  return part;
}

TEST(ClusterRaw, MergeAllSortsAndDeduplicatesNodesOnceAndLaterPartsWin) {
  std::vector<ClusterRaw> parts;
  for (const char* node : {"node3", "node10", "node1", "node2"}) parts.push_back(Part(node, "6.1"));
  parts.push_back(Part("node1", "6.8"));
  parts.back().cluster["sinfo"] = {ProbeStatus::kOk, "sinfo table", "sinfo.txt", ""};
  ClusterRaw raw;
  raw.MergeAll(std::move(parts));
  EXPECT_EQ(raw.nodes, (std::vector<std::string>{"node1", "node10", "node2", "node3"}));
  EXPECT_EQ(raw.NodeOutput("node1", "uname-r").text, "6.8") << "the later part replaces the earlier";
  EXPECT_EQ(raw.NodeOutput("node10", "uname-r").text, "6.1");
  EXPECT_EQ(raw.ClusterOutput("sinfo").text, "sinfo table");
}

TEST(ClusterRaw, MergeOfOnePartMatchesMergeAll) {
  ClusterRaw raw = Part("node2", "a");
  raw.Merge(Part("node1", "b"));
  raw.Merge(Part("node2", "c"));
  EXPECT_EQ(raw.nodes, (std::vector<std::string>{"node1", "node2"}));
  EXPECT_EQ(raw.NodeOutput("node2", "uname-r").text, "c");
}

TEST(ClusterRaw, MergingTenThousandOneNodePartsKeepsEveryNodeInOrder) {
  std::vector<ClusterRaw> parts;
  for (int i = 10000; i >= 1; --i) parts.push_back(Part("gpu" + std::to_string(100000 + i), "x"));
  ClusterRaw raw;
  raw.MergeAll(std::move(parts));
  ASSERT_EQ(raw.nodes.size(), 10000u);
  EXPECT_TRUE(std::is_sorted(raw.nodes.begin(), raw.nodes.end()));
  EXPECT_EQ(raw.nodes.front(), "gpu100001");
  EXPECT_EQ(raw.node.size(), 10000u);
}

TEST(ClusterRaw, ReleasingANodeDropsItsOutputsButKeepsTheNodeAndClusterOutputs) {
  ClusterRaw raw = Part("node1", "6.1");
  raw.Merge(Part("node2", "6.1"));
  raw.cluster["sinfo"] = {ProbeStatus::kOk, "table", "sinfo.txt", ""};
  raw.ReleaseNode("node1");
  EXPECT_EQ(raw.NodeOutput("node1", "uname-r").status, ProbeStatus::kAbsent);
  EXPECT_EQ(raw.NodeOutput("node2", "uname-r").text, "6.1");
  EXPECT_EQ(raw.nodes, (std::vector<std::string>{"node1", "node2"}));
  EXPECT_TRUE(raw.ClusterOutput("sinfo").ok());
}

// A source that answers "<node>:<probe>" and counts what it was asked.
class CountingSource : public ProbeSource {
 public:
  std::vector<std::string> Nodes() const override { return {"node2", "node1", "node3"}; }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override {
    ++fetches[node + ":" + spec.id];
    if (spec.id == "missing")
      return {ProbeStatus::kAbsent, "", node + "/missing.txt", "nodes/" + node + "/missing.txt: absent"};
    return {ProbeStatus::kOk, node + ":" + spec.id, node + "/" + spec.file, ""};
  }
  std::map<std::string, int> fetches;
};

ProbeSpec Spec(const std::string& id, ProbeScope scope) {
  ProbeSpec spec;
  spec.id = id;
  spec.scope = scope;
  spec.file = id + ".txt";
  return spec;
}

std::vector<ProbeSpec> SomeProbes() {
  return {Spec("uname-r", ProbeScope::kNode), Spec("missing", ProbeScope::kNode), Spec("sinfo", ProbeScope::kCluster)};
}

TEST(ClusterRaw, LazyReplayAnswersWhatFetchAllAnswers) {
  CountingSource eager_source;
  const ClusterRaw eager = FetchAll(eager_source, SomeProbes());
  const ClusterRaw lazy = ReplayLazily(std::make_shared<CountingSource>(), SomeProbes());
  EXPECT_EQ(lazy.nodes, (std::vector<std::string>{"node1", "node2", "node3"}));
  EXPECT_EQ(lazy.ClusterOutput("sinfo").text, eager.ClusterOutput("sinfo").text);
  for (const std::string node : {"node1", "node2", "node3", "node9"}) {
    for (const std::string probe : {"uname-r", "missing", "never-fetched"}) {
      const RawOutput want = eager.NodeOutput(node, probe);
      const RawOutput got = lazy.NodeOutput(node, probe);
      EXPECT_EQ(got.status, want.status) << node << " " << probe;
      EXPECT_EQ(got.text, want.text) << node << " " << probe;
      EXPECT_EQ(got.origin, want.origin) << node << " " << probe;
      EXPECT_EQ(got.detail, want.detail) << node << " " << probe;
    }
  }
}

TEST(ClusterRaw, LazyReplayReadsEachOutputOnceHoldsOneNodeAndNeverRereadsAReleasedNode) {
  auto source = std::make_shared<CountingSource>();
  const ClusterRaw raw = ReplayLazily(source, SomeProbes());
  EXPECT_EQ(source->fetches.size(), 1u) << "only the cluster output is read up front";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(raw.NodeOutput("node1", "uname-r").text, "node1:uname-r");
  EXPECT_EQ(source->fetches["node1:uname-r"], 1) << "read once while node1 is being judged";
  EXPECT_EQ(raw.NodeOutput("node2", "uname-r").text, "node2:uname-r");
  EXPECT_EQ(raw.node.size(), 1u) << "asking for node2 drops what node1 held";
  raw.ReleaseNode("node2");
  EXPECT_EQ(raw.NodeOutput("node2", "uname-r").status, ProbeStatus::kAbsent);
  EXPECT_EQ(source->fetches["node2:uname-r"], 1) << "a released node is not read again";
  EXPECT_TRUE(raw.node.empty());
}

}  // namespace
}  // namespace gpuconform
