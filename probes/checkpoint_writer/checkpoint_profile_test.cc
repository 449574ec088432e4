// The profile's checkpoint: section: its numbers with their source, the defaults of what it
// leaves out, and the built-in GPU profiles' sourced checkpoint size.
#include "probes/checkpoint_writer/checkpoint_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::checkpoint {
namespace {

using namespace test_support::profile_tests;

TEST(CheckpointProfile, ReadsTheTargetAndNumbersAndDefaultsTheRest) {
  const std::optional<CheckpointExpectation> checkpoint = ParsedSection<CheckpointExpectation>(
      {"  dir: /shared/ckpt", "  size_bytes: 17179869184", "  read_floor_gb_per_s: 2.5", "  source: measured"});
  ASSERT_TRUE(checkpoint);
  EXPECT_EQ(checkpoint->dir, "/shared/ckpt");
  EXPECT_EQ(checkpoint->temp_dir, "");
  EXPECT_EQ(checkpoint->size_bytes, 17179869184LL);
  EXPECT_DOUBLE_EQ(checkpoint->read_floor_gb_per_s, 2.5);
  EXPECT_EQ(checkpoint->torture_kills, 200);
  EXPECT_EQ(checkpoint->test_file_bytes, 4LL << 20);
  EXPECT_EQ(checkpoint->source, "measured");
  EXPECT_FALSE(ParsedSection<CheckpointExpectation>("name: n\n"));
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
  ForEachGpuProfileSection<CheckpointExpectation>(
      [](const CheckpointExpectation& checkpoint) { EXPECT_GT(checkpoint.size_bytes, 0); });
}

}  // namespace
}  // namespace gpuconform::checkpoint
