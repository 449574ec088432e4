// The profile's health_check: section: the quick checks, each Suite.Check as `gpuconform list`
// prints it, and why they are cheap enough.
#include "app/health_check_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform {
namespace {

using namespace test_support::profile_tests;

TEST(HealthCheckProfile, ReadsTheQuickChecksAndTheirReason) {
  const std::optional<HealthCheckExpectation> section = ParsedSection<HealthCheckExpectation>(
      {"  quick_checks: [Munge.DaemonRunning, NvSwitch.AllLinksActive]", "  source: passive reads, under a second"});
  ASSERT_TRUE(section);
  EXPECT_EQ(section->quick_checks, (std::vector<std::string>{"Munge.DaemonRunning", "NvSwitch.AllLinksActive"}));
  EXPECT_EQ(section->source, "passive reads, under a second");
  const std::optional<HealthCheckExpectation> local = BuiltinSection<HealthCheckExpectation>("local");
  ASSERT_TRUE(local);
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
