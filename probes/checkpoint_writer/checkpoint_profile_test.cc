// The profile's checkpoint: section: its numbers with their source, the defaults of what it
// leaves out, and the built-in GPU profiles' sourced checkpoint size.
#include "probes/checkpoint_writer/checkpoint_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

namespace gpuconform::checkpoint {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using test_support::Lines;
using test_support::ParseError;

TEST(CheckpointProfile, ReadsTheTargetAndNumbersAndDefaultsTheRest) {
  auto profile = ParseProfile(Lines({"name: n", "checkpoint:", "  dir: /shared/ckpt", "  size_bytes: 17179869184",
                                     "  read_floor_gb_per_s: 2.5", "  source: measured"}),
                              test_support::kProfileFile);
  ASSERT_TRUE(profile) << profile.error();
  const auto* checkpoint = profile->Get<CheckpointExpectation>();
  ASSERT_NE(checkpoint, nullptr);
  EXPECT_EQ(checkpoint->dir, "/shared/ckpt");
  EXPECT_EQ(checkpoint->temp_dir, "");
  EXPECT_EQ(checkpoint->size_bytes, 17179869184LL);
  EXPECT_DOUBLE_EQ(checkpoint->read_floor_gb_per_s, 2.5);
  EXPECT_EQ(checkpoint->torture_kills, 200);
  EXPECT_EQ(checkpoint->test_file_bytes, 4LL << 20);
  EXPECT_EQ(checkpoint->source, "measured");
  EXPECT_EQ(test_support::Parsed(ParseProfile("name: n\n", test_support::kProfileFile)).Get<CheckpointExpectation>(),
            nullptr);
}

TEST(CheckpointProfile, RefusesNumbersWithoutSourceUnknownKeysAndBadCounts) {
  EXPECT_THAT(ParseError(Lines({"name: n", "checkpoint:", "  size_bytes: 8"})),
              StartsWith("t.yaml:2:checkpoint.source: missing"));
  EXPECT_THAT(ParseError(Lines({"name: n", "checkpoint:", "  dri: /x"})), HasSubstr("did you mean 'dir'"));
  EXPECT_EQ(ParseError(Lines({"name: n", "checkpoint:", "  parallel_readers: 257"})),
            "t.yaml:3:checkpoint.parallel_readers: too large, got '257'");
  EXPECT_EQ(ParseError(Lines({"name: n", "checkpoint:", "  torture_kills: 0"})),
            "t.yaml:3:checkpoint.torture_kills: must be positive, got '0'");
}

TEST(CheckpointProfile, GpuProfilesSizeAModelsCheckpointWithItsSource) {
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8"}) {
    const Profile profile = test_support::BuiltinProfile(name);
    const auto* checkpoint = profile.Get<CheckpointExpectation>();
    ASSERT_NE(checkpoint, nullptr) << name;
    EXPECT_GT(checkpoint->size_bytes, 0) << name;
    EXPECT_FALSE(checkpoint->source.empty()) << name;
  }
}

}  // namespace
}  // namespace gpuconform::checkpoint
