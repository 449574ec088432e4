// The profile's torchrun: section: the launcher, backend and floors with their source, the
// defaults of what it leaves out, and the built-in profiles' backends.
#include "probes/torchrun/torchrun_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::torchrun {
namespace {

using namespace test_support::profile_tests;

TEST(TorchrunProfile, ReadsTheLauncherBackendAndFloorsAndDefaultsTheRest) {
  const std::optional<TorchrunExpectation> torchrun = ParsedSection<TorchrunExpectation>(
      {"  command: /opt/venv/bin/torchrun", "  backend: gloo", "  busbw_floor_gb_per_s: 1.5", "  source: measured"});
  ASSERT_TRUE(torchrun);
  EXPECT_EQ(torchrun->command, "/opt/venv/bin/torchrun");
  EXPECT_EQ(torchrun->backend, "gloo");
  EXPECT_DOUBLE_EQ(torchrun->busbw_floor_gb_per_s, 1.5);
  EXPECT_EQ(torchrun->nproc_per_node, 0);
  EXPECT_EQ(torchrun->timeout_s, 60);
  EXPECT_EQ(torchrun->allreduce_size_bytes, 16LL << 20);
  EXPECT_FALSE(ParsedSection<TorchrunExpectation>("name: n\n"));
}

TEST(TorchrunProfile, RefusesAnUnknownBackendFloorsWithoutSourceAndUnknownKeys) {
  EXPECT_EQ(ParseError(Lines({"name: n", "torchrun:", "  backend: mpi"})),
            "t.yaml:3:torchrun.backend: expected nccl or gloo, got 'mpi'");
  EXPECT_THAT(ParseError(Lines({"name: n", "torchrun:", "  dataload_floor_mb_per_s: 5"})),
              StartsWith("t.yaml:2:torchrun.source: missing"));
  EXPECT_EQ(ParseError(Lines({"name: n", "torchrun:", "  timeout_s: 3601"})),
            "t.yaml:3:torchrun.timeout_s: too large, got '3601'");
  EXPECT_THAT(ParseError(Lines({"name: n", "torchrun:", "  nproc_per_nod: 2"})),
              HasSubstr("did you mean 'nproc_per_node'"));
}

TEST(TorchrunProfile, GpuProfilesLaunchNcclAndTheLocalOneGloo) {
  for (const char* name : kGpuProfiles) {
    const std::optional<TorchrunExpectation> torchrun = BuiltinSection<TorchrunExpectation>(name);
    ASSERT_TRUE(torchrun) << name;
    EXPECT_EQ(torchrun->backend, "nccl") << name;
  }
  const std::optional<TorchrunExpectation> local = BuiltinSection<TorchrunExpectation>("local");
  ASSERT_TRUE(local);
  EXPECT_EQ(local->backend, "gloo");
  EXPECT_EQ(local->nproc_per_node, 2);
}

}  // namespace
}  // namespace gpuconform::torchrun
