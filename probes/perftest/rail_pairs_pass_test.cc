// The live pairing pass in one process: what it says where it cannot pair (these machines have
// no RDMA device), and how it reads a node's active ports.
#include "probes/perftest/rail_pairs_pass.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/world/world.h"
#include "tests/support/test_support.h"

namespace gpuconform::perftest {
namespace {

namespace fs = std::filesystem;

bool MachineHasRdmaDevices() {
  std::error_code ec;
  return fs::exists("/sys/class/infiniband", ec) && !fs::is_empty("/sys/class/infiniband", ec);
}

RawOutput RunAlone(const Profile* profile, const RunOptions& options) {
  const World world = World::Single();
  return RunRailPairsPass(CollectiveContext{world, profile, "testnode", true, {"testnode"}, options});
}

TEST(RailPairsPass, WithoutAnRdmaDeviceQuotesPerftestsOwnWords) {
  if (MachineHasRdmaDevices()) GTEST_SKIP() << "this machine has RDMA devices";
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  const RawOutput out = RunAlone(&profile, DefaultRunOptions());
  if (out.status == ProbeStatus::kToolMissing) GTEST_SKIP() << "perftest is not installed: " << out.detail;
  EXPECT_EQ(out.status, ProbeStatus::kFailed);
  EXPECT_NE(out.detail.find("testnode: no RDMA device, in perftest's own words: 'Did not detect devices"),
            std::string::npos)
      << out.detail;
}

TEST(RailPairsPass, UnderAProfileWithoutRailsNothingIsMeasured) {
  const Profile profile = test_support::BuiltinProfile("local");
  const RawOutput out = RunAlone(&profile, DefaultRunOptions());
  EXPECT_EQ(out.status, ProbeStatus::kAbsent);
  EXPECT_NE(out.detail.find("expects no InfiniBand or RoCE rails"), std::string::npos) << out.detail;
}

// One node with an active port has nobody to pair with: the pass says so instead of waiting.
TEST(RailPairsPass, ActivePortsAreReadFromSysfsAndOneNodeHasNoPeer) {
  const fs::path sysfs = fs::path(::testing::TempDir()) / "rail-pairs-sysfs";
  fs::remove_all(sysfs);
  for (const auto& [hca, port, state] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"mlx5_0", "1", "4: ACTIVE"}, {"mlx5_1", "1", "1: DOWN"}}) {
    fs::create_directories(sysfs / "class/infiniband" / hca / "ports" / port);
    std::ofstream(sysfs / "class/infiniband" / hca / "ports" / port / "state") << state << "\n";
  }
  RunOptions options = DefaultRunOptions();
  options.sysfs_root = sysfs.string();
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  const RawOutput out = RunAlone(&profile, options);
  if (out.status == ProbeStatus::kToolMissing) GTEST_SKIP() << "perftest is not installed: " << out.detail;
  EXPECT_EQ(out.status, ProbeStatus::kFailed);
  EXPECT_EQ(out.detail, "fewer than two nodes share an active RDMA port (HCA and port)");
  fs::remove_all(sysfs);
}

}  // namespace
}  // namespace gpuconform::perftest
