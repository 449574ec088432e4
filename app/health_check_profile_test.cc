// The profile's health_check: section: the quick checks, each Suite.Check as `gpuconform list`
// prints it, and why they are cheap enough.
#include "app/health_check_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using test_support::Lines;
using test_support::ParseError;

TEST(HealthCheckProfile, ReadsTheQuickChecksAndTheirReason) {
  auto profile = ParseProfile(Lines({"name: n", "health_check:", "  quick_checks: [Munge.DaemonRunning, NvSwitch.AllLinksActive]",
                                     "  source: passive reads, under a second"}),
                              test_support::kProfileFile);
  ASSERT_TRUE(profile) << profile.error();
  const auto* section = profile->Get<HealthCheckExpectation>();
  ASSERT_NE(section, nullptr);
  EXPECT_EQ(section->quick_checks, (std::vector<std::string>{"Munge.DaemonRunning", "NvSwitch.AllLinksActive"}));
  EXPECT_EQ(section->source, "passive reads, under a second");
  const auto* local = test_support::BuiltinProfile("local").Get<HealthCheckExpectation>();
  ASSERT_NE(local, nullptr);
  EXPECT_FALSE(local->quick_checks.empty());
}

TEST(HealthCheckProfile, ACheckNotNamedSuiteDotCheckOrAMissingReasonIsAnError) {
  EXPECT_THAT(ParseError(Lines({"name: n", "health_check:", "  quick_checks:", "    - Munge.DaemonRunning",
                                "    - Munge.DaemonRunning/node1", "  source: s"})),
              StartsWith("t.yaml:5:health_check.quick_checks[1]: expected Suite.Check"));
  EXPECT_THAT(ParseError(Lines({"name: n", "health_check:", "  quick_checks: [Munge.DaemonRunning]"})),
              HasSubstr("health_check.source: missing"));
}

}  // namespace
}  // namespace gpuconform
