// The profile's slurm: section: a GRES and its GPU count that must agree, typed GRES and a
// partition, and the GPU GRES every built-in profile states.
#include "probes/slurm/slurm_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::slurm {
namespace {

using namespace test_support::profile_tests;

TEST(SlurmProfile, AcceptsTypedGresAndAPartition) {
  const std::optional<SlurmExpectation> slurm = ParsedSection<SlurmExpectation>(
      {"  gres: gpu:h100:8", "  gpus_per_node: 8", "  partition: batch", "  source: site"});
  ASSERT_TRUE(slurm);
  EXPECT_EQ(slurm->gres, "gpu:h100:8");
  EXPECT_EQ(slurm->gpus_per_node, 8);
  EXPECT_EQ(slurm->partition, "batch");
  EXPECT_FALSE(ParsedSection<SlurmExpectation>("name: minimal\n"))
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
    const std::optional<SlurmExpectation> slurm = BuiltinSection<SlurmExpectation>(builtin.name);
    if (slurm) EXPECT_FALSE(slurm->source.empty()) << builtin.name;
  }
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8", "local"}) {
    const std::optional<SlurmExpectation> slurm = BuiltinSection<SlurmExpectation>(name);
    ASSERT_TRUE(slurm) << name;
    EXPECT_EQ(slurm->gres, "gpu:8") << name;
    EXPECT_EQ(slurm->gpus_per_node, 8) << name;
  }
}

}  // namespace
}  // namespace gpuconform::slurm
