// nvbandwidth's live run: `<binary> -j` where the profile has an nvbandwidth section, nothing
// where it has none, nvbandwidth on PATH for a capture without a profile; its snapshot files.
#include <gtest/gtest.h>

#include "harness/core/live_source.h"
#include "probes/nvbandwidth/nvbandwidth_probes.h"
#include "probes/nvbandwidth/nvbandwidth_profile.h"

namespace gpuconform::nvbandwidth {
namespace {

TEST(NvbandwidthProbes, RunsTheProfilesBinaryWithJsonAndReadsTheTextFromSnapshots) {
  EXPECT_EQ(NvbandwidthJsonProbe().file, "nvbandwidth.json");
  EXPECT_EQ(NvbandwidthTextProbe().file, "nvbandwidth.txt");
  EXPECT_EQ(NvbandwidthJsonProbe().device_driver, kNvidiaDriverLoaded);
  Profile profile;
  EXPECT_FALSE(NvbandwidthCommand(&profile));
  NvbandwidthExpectation floors;
  floors.binary = "/opt/nvbandwidth/nvbandwidth";
  profile.Set(floors);
  const auto command = NvbandwidthCommand(&profile);
  ASSERT_TRUE(command);
  EXPECT_EQ(command->argv, (std::vector<std::string>{"/opt/nvbandwidth/nvbandwidth", "-j"}));
  EXPECT_EQ(command->timeout_ms, kNvbandwidthTimeoutMs);
  EXPECT_EQ(NvbandwidthCommand(nullptr)->argv, (std::vector<std::string>{"nvbandwidth", "-j"}));
  const RawOutput text = NvbandwidthTextProbe().builtin(LiveContext{"n1"});
  EXPECT_EQ(text.status, ProbeStatus::kAbsent);
}

}  // namespace
}  // namespace gpuconform::nvbandwidth
