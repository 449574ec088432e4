// The profile's torchrun: section: the launcher, backend and floors with their source, the
// defaults of what it leaves out, and the built-in profiles' backends.
#include "probes/torchrun/torchrun_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

namespace gpuconform::torchrun {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using test_support::Lines;
using test_support::ParseError;

TEST(TorchrunProfile, ReadsTheLauncherBackendAndFloorsAndDefaultsTheRest) {
  auto profile = ParseProfile(Lines({"name: n", "torchrun:", "  command: /opt/venv/bin/torchrun", "  backend: gloo",
                                     "  busbw_floor_gb_per_s: 1.5", "  source: measured"}),
                              test_support::kProfileFile);
  ASSERT_TRUE(profile) << profile.error();
  const auto* torchrun = profile->Get<TorchrunExpectation>();
  ASSERT_NE(torchrun, nullptr);
  EXPECT_EQ(torchrun->command, "/opt/venv/bin/torchrun");
  EXPECT_EQ(torchrun->backend, "gloo");
  EXPECT_DOUBLE_EQ(torchrun->busbw_floor_gb_per_s, 1.5);
  EXPECT_EQ(torchrun->nproc_per_node, 0);
  EXPECT_EQ(torchrun->timeout_s, 60);
  EXPECT_EQ(torchrun->allreduce_size_bytes, 16LL << 20);
  const Profile plain = test_support::Parsed(ParseProfile("name: n\n", test_support::kProfileFile));
  EXPECT_EQ(plain.Get<TorchrunExpectation>(), nullptr);
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
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8"}) {
    const Profile profile = test_support::BuiltinProfile(name);
    const auto* torchrun = profile.Get<TorchrunExpectation>();
    ASSERT_NE(torchrun, nullptr) << name;
    EXPECT_EQ(torchrun->backend, "nccl") << name;
  }
  const Profile local = test_support::BuiltinProfile("local");
  ASSERT_NE(local.Get<TorchrunExpectation>(), nullptr);
  EXPECT_EQ(local.Get<TorchrunExpectation>()->backend, "gloo");
  EXPECT_EQ(local.Get<TorchrunExpectation>()->nproc_per_node, 2);
}

}  // namespace
}  // namespace gpuconform::torchrun
