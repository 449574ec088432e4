// FactCache: each fact is computed once per run and shared; a copy starts empty.
#include "harness/core/fact_cache.h"

#include <gtest/gtest.h>

#include "facts/gpu_facts.h"
#include "harness/core/cluster_raw.h"

namespace gpuconform {
namespace {

TEST(FactCache, ComputesEachFactOncePerKindAndNode) {
  FactCache cache;
  int computed = 0;
  auto compute = [&] { return ++computed; };
  EXPECT_EQ(cache.Get<int>("gpu-inventory", "node1", compute), 1);
  EXPECT_EQ(cache.Get<int>("gpu-inventory", "node1", compute), 1);
  EXPECT_EQ(cache.Get<int>("gpu-inventory", "node2", compute), 2);
  EXPECT_EQ(cache.Get<int>("ib-ports", "node1", compute), 3);
  EXPECT_EQ(computed, 3);
}

TEST(FactCache, ACopyStartsEmptySoItNeverServesStaleFacts) {
  FactCache cache;
  cache.Get<int>("k", "n", [] { return 1; });
  FactCache copy = cache;
  EXPECT_EQ(copy.Get<int>("k", "n", [] { return 2; }), 2);
}

TEST(FactCache, ClearingANodeDropsOnlyThatNodesFacts) {
  FactCache cache;
  int computed = 0;
  auto compute = [&] { return ++computed; };
  cache.Get<int>("gpu-inventory", "node1", compute);
  cache.Get<int>("ib-ports", "node1", compute);
  cache.Get<int>("gpu-inventory", "node10", compute);
  cache.Get<int>("gpu-inventory", "node2", compute);
  cache.ClearNode("node1");
  EXPECT_EQ(cache.Get<int>("gpu-inventory", "node10", compute), 3) << "node10 is not node1";
  EXPECT_EQ(cache.Get<int>("gpu-inventory", "node2", compute), 4);
  EXPECT_EQ(cache.Get<int>("gpu-inventory", "node1", compute), 5) << "node1 computed again";
}

TEST(FactCache, MergingRawOutputsDropsWhatWasParsedBefore) {
  ClusterRaw raw;
  raw.nodes = {"n1"};
  const auto before = facts::ReadGpuInventory(raw, "n1");
  ASSERT_FALSE(before.ok());
  ClusterRaw more;
  more.nodes = {"n1"};
  more.node["n1"]["nvidia-smi-q"] = {ProbeStatus::kOk,
                                     "<nvidia_smi_log><driver_version>550.54.15</driver_version>"
                                     "<attached_gpus>0</attached_gpus></nvidia_smi_log>",
                                     "n1/nvidia-smi-q.xml", ""};
  raw.Merge(more);
  const auto after = facts::ReadGpuInventory(raw, "n1");
  EXPECT_TRUE(after.ok()) << after.error();
}

}  // namespace
}  // namespace gpuconform
