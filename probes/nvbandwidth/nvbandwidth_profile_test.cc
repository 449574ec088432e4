// The profile's nvbandwidth: section: floors with their source, the binary, and every GPU
// profile's floors below the realdata's healthy A100-class copies on the A100 one.
#include "probes/nvbandwidth/nvbandwidth_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

namespace gpuconform::nvbandwidth {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using test_support::Lines;
using test_support::ParseError;

TEST(NvbandwidthProfile, ReadsFloorsWithTheirSourceAndTheBinary) {
  auto profile = ParseProfile(Lines({"name: n", "nvbandwidth:", "  host_to_device_gb_per_s: 40",
                                     "  device_to_host_gb_per_s: 40.5", "  device_to_device_gb_per_s: 300",
                                     "  binary: /opt/nvbandwidth/nvbandwidth", "  source: measured"}),
                              test_support::kProfileFile);
  ASSERT_TRUE(profile) << profile.error();
  const auto* floors = profile->Get<NvbandwidthExpectation>();
  ASSERT_NE(floors, nullptr);
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
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8"}) {
    const Profile profile = test_support::BuiltinProfile(name);
    const auto* floors = profile.Get<NvbandwidthExpectation>();
    ASSERT_NE(floors, nullptr) << name;
    EXPECT_GT(floors->host_to_device_gb_per_s, 0) << name;
    EXPECT_GT(floors->device_to_host_gb_per_s, 0) << name;
    EXPECT_GT(floors->device_to_device_gb_per_s, 0) << name;
    EXPECT_FALSE(floors->source.empty()) << name;
  }
  const Profile a100 = test_support::BuiltinProfile("a100-sxm-8");
  EXPECT_LT(a100.Get<NvbandwidthExpectation>()->host_to_device_gb_per_s, 25.94);
  EXPECT_LT(a100.Get<NvbandwidthExpectation>()->device_to_device_gb_per_s, 274.89);
  EXPECT_EQ(test_support::BuiltinProfile("local").Get<NvbandwidthExpectation>(), nullptr);
}

}  // namespace
}  // namespace gpuconform::nvbandwidth
