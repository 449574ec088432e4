// The profile's slurm: section: a GRES and its GPU count that must agree, typed GRES and a
// partition, and the GPU GRES every built-in profile states.
#include "probes/slurm/slurm_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

namespace gpuconform::slurm {
namespace {

using test_support::Lines;
using test_support::ParseError;

TEST(SlurmProfile, AcceptsTypedGresAndAPartition) {
  Result<Profile> profile = ParseProfile(
      Lines({"name: typed", "slurm:", "  gres: gpu:h100:8", "  gpus_per_node: 8", "  partition: batch",
             "  source: site"}),
      test_support::kProfileFile);
  ASSERT_TRUE(profile.ok()) << profile.error();
  const SlurmExpectation* slurm = profile->Get<SlurmExpectation>();
  ASSERT_NE(slurm, nullptr);
  EXPECT_EQ(slurm->gres, "gpu:h100:8");
  EXPECT_EQ(slurm->gpus_per_node, 8);
  EXPECT_EQ(slurm->partition, "batch");
  EXPECT_EQ(test_support::Parsed(ParseProfile("name: minimal\n", test_support::kProfileFile)).Get<SlurmExpectation>(),
            nullptr)
      << "a profile without the section says nothing of Slurm";
}

TEST(SlurmProfile, RejectsGresThatDisagreesWithGpusPerNode) {
  EXPECT_EQ(ParseError(Lines({"name: n", "slurm:", "  gres: gpu:8", "  gpus_per_node: 4", "  source: x"})),
            "t.yaml:4:slurm.gpus_per_node: 4 disagrees with slurm.gres 'gpu:8'");
  EXPECT_EQ(ParseError(Lines({"name: n", "slurm:", "  gres: gpu", "  gpus_per_node: 8", "  source: x"})),
            "t.yaml:3:slurm.gres: expected 'NAME:COUNT' or 'NAME:TYPE:COUNT' such as 'gpu:8', got 'gpu'");
}

// Every built-in profile states gpu:8 with its source; the CPU-only local one too (its
// gres.conf gives each node eight dummy devices).
TEST(SlurmProfile, BuiltinProfilesStateGpu8WithASource) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    const Profile profile = test_support::BuiltinProfile(builtin.name);
    const SlurmExpectation* slurm = profile.Get<SlurmExpectation>();
    if (slurm) EXPECT_FALSE(slurm->source.empty()) << builtin.name;
  }
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8", "local"}) {
    const Profile profile = test_support::BuiltinProfile(name);
    const SlurmExpectation* slurm = profile.Get<SlurmExpectation>();
    ASSERT_NE(slurm, nullptr) << name;
    EXPECT_EQ(slurm->gres, "gpu:8") << name;
    EXPECT_EQ(slurm->gpus_per_node, 8) << name;
  }
}

}  // namespace
}  // namespace gpuconform::slurm
