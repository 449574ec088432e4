// How often a run reads each node's outputs: once, so that each input is parsed once per run
// (the facts are dropped with the node), but for the few small outputs that a suite's
// `evaluate` or a cluster check reads of every node at once, which the node-by-node pass reads
// again (docs/architecture.md, "How a run flows").
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "harness/core/cluster_raw.h"
#include "harness/core/snapshot_source.h"
#include "harness/core/suite_registry.h"
#include "probes/fabric_reach/reachability_probe.h"
#include "probes/iproute/iproute_probes.h"
#include "probes/munge/munge_probes.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "probes/torchrun/torchrun_probe.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

// A snapshot that counts what the replay fetches of each node.
class CountingSource : public ProbeSource {
 public:
  explicit CountingSource(std::unique_ptr<SnapshotSource> snapshot) : snapshot_(std::move(snapshot)) {}
  std::vector<std::string> Nodes() const override { return snapshot_->Nodes(); }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override {
    if (!node.empty()) ++fetches[{node, spec.id}];
    return snapshot_->Fetch(spec, node);
  }
  std::map<std::pair<std::string, std::string>, int> fetches;  // (node, probe id) -> times read

 private:
  std::unique_ptr<SnapshotSource> snapshot_;
};

TEST(SnapshotReads, EveryFixtureRunReadsEachNodeOutputOnceButTheSmallOnesReadOfEveryNodeAtOnce) {
  // Read of every node at once, and again node by node, by design: small outputs that a cluster
  // check or a suite's `evaluate` reads of every node (Launch's addresses; the Interfaces suite's
  // subnet, MTU and reachability; Munge's decode matrix; Torchrun's launches), and the GPU
  // inventory that SlurmGres reads for each node's hardware count where the controller's view
  // is in the snapshot. At most once per reader and once more in the node-by-node pass.
  const std::set<std::string> read_again = {iproute::IpAddrProbe().id,      iproute::IpLinkProbe().id,
                                            fabric_reach::FabricReachProbe().id, munge::CrossDecodeProbe().id,
                                            torchrun::TorchrunProbe().id, nvidia_smi::NvidiaSmiQueryXml().id};
  // Where no controller's view is kept, the GPU inventory, a node's largest output, is read once:
  // the Software suite's version and firmware comparisons read it in the node pass.
  const std::set<std::string> inventory_read_once = {"h100-3node-version-skew", "h100-3node-firmware-drift",
                                                     "gpu-h100-healthy", "gpu-health-h100-healthy"};
  const auto suites = SuiteRegistry::Instance().Suites();
  const auto probes = SuiteRegistry::Instance().AllProbes();
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  const std::vector<RankInfo> ranks;
  int snapshots = 0;
  int inventory_checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test_support::FixtureDir(""))) {
    auto snapshot = OpenSnapshot(entry.path().string());
    if (!snapshot) continue;  // the fixtures of a bad layout, which tests of their own read
    ++snapshots;
    auto source = std::make_shared<CountingSource>(std::move(snapshot).value());
    const ClusterRaw raw = ReplayLazily(source, probes);
    const SuiteContext context{raw, profile, ranks, false, ""};
    EXPECT_FALSE(EvaluateSuites(suites, context).empty());
    for (const auto& [where, times] : source->fetches) {
      const auto& [node, probe] = where;
      if (read_again.count(probe)) {
        EXPECT_LE(times, 4) << entry.path().filename().string() << ": " << node << "'s " << probe;
        continue;
      }
      EXPECT_EQ(times, 1) << entry.path().filename().string() << ": " << node << "'s " << probe << " was read "
                          << times << " times";
    }
    if (!inventory_read_once.count(entry.path().filename().string())) continue;
    ++inventory_checked;
    for (const auto& node : raw.nodes) {
      const std::pair<std::string, std::string> inventory{node, nvidia_smi::NvidiaSmiQueryXml().id};
      EXPECT_EQ(source->fetches[inventory], 1)
          << entry.path().filename().string() << ": " << node;
    }
  }
  EXPECT_GT(snapshots, 40);
  EXPECT_EQ(inventory_checked, static_cast<int>(inventory_read_once.size()));
}

}  // namespace
}  // namespace gpuconform
