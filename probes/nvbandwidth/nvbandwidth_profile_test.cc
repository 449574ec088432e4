// The profile's nvbandwidth: section: floors with their source, the binary, and every GPU
// profile's floors below the realdata's healthy A100-class copies on the A100 one.
#include "probes/nvbandwidth/nvbandwidth_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::nvbandwidth {
namespace {

using namespace test_support::profile_tests;

TEST(NvbandwidthProfile, ReadsFloorsWithTheirSourceAndTheBinary) {
  const std::optional<NvbandwidthExpectation> floors = ParsedSection<NvbandwidthExpectation>(
      {"  host_to_device_gb_per_s: 40", "  device_to_host_gb_per_s: 40.5", "  device_to_device_gb_per_s: 300",
       "  binary: /opt/nvbandwidth/nvbandwidth", "  source: measured"});
  ASSERT_TRUE(floors);
  EXPECT_DOUBLE_EQ(floors->host_to_device_gb_per_s, 40);
  EXPECT_DOUBLE_EQ(floors->device_to_host_gb_per_s, 40.5);
  EXPECT_DOUBLE_EQ(floors->device_to_device_gb_per_s, 300);
  EXPECT_EQ(floors->binary, "/opt/nvbandwidth/nvbandwidth");
  EXPECT_THAT(ParseError(Lines({"name: n", "nvbandwidth:", "  host_to_device_gb_per_s: 40"})),
              HasSubstr("nvbandwidth.source: missing"));
  EXPECT_THAT(ParseError(Lines({"name: n", "nvbandwidth:", "  device_to_device_gb_per_s: -1", "  source: s"})),
              StartsWith("t.yaml:3:nvbandwidth.device_to_device_gb_per_s: must be positive"));
  EXPECT_THAT(ParseError(Lines({"name: n", "nvbandwidth:", "  binry: x", "  source: s"})),
              HasSubstr("did you mean 'binary'"));
}

// Floors on every GPU profile, below the realdata's healthy A100-class copies (h2d ~26 GB/s,
// d2d ~276 GB/s) on the A100 one; none on the local (CPU) profile.
TEST(NvbandwidthProfile, GpuProfilesHaveSourcedFloors) {
  ForEachGpuProfileSection<NvbandwidthExpectation>([](const NvbandwidthExpectation& floors) {
    EXPECT_GT(floors.host_to_device_gb_per_s, 0);
    EXPECT_GT(floors.device_to_host_gb_per_s, 0);
    EXPECT_GT(floors.device_to_device_gb_per_s, 0);
  });
  const std::optional<NvbandwidthExpectation> a100 = BuiltinSection<NvbandwidthExpectation>("a100-sxm-8");
  ASSERT_TRUE(a100);
  EXPECT_LT(a100->host_to_device_gb_per_s, 25.94);
  EXPECT_LT(a100->device_to_device_gb_per_s, 274.89);
  EXPECT_FALSE(BuiltinSection<NvbandwidthExpectation>("local"));
}

}  // namespace
}  // namespace gpuconform::nvbandwidth
