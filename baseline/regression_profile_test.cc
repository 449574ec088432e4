// The profile's regression: section: gpuconform's defaults, saying so, where it is absent; the
// tolerances and their required source where it is given.
#include "baseline/regression_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform {
namespace {

using namespace test_support::profile_tests;

TEST(RegressionProfile, AbsentGivesTheDefaultsWithTheirOwnSource) {
  auto profile = ParseProfile("name: n\n", test_support::kProfileFile);
  ASSERT_TRUE(profile) << profile.error();
  EXPECT_EQ(profile->Get<RegressionTolerance>(), nullptr);
  const RegressionTolerance& tolerance = profile->GetOrDefault<RegressionTolerance>();
  EXPECT_DOUBLE_EQ(tolerance.bandwidth_fraction, 0.10);
  EXPECT_DOUBLE_EQ(tolerance.time_fraction, 0.25);
  EXPECT_EQ(tolerance.source, kDefaultRegressionSource);
}

TEST(RegressionProfile, ReadsTolerancesAndRequiresTheirSource) {
  auto profile = ParseProfile(Lines({"name: n", "regression:", "  bandwidth_tolerance_fraction: 0.05",
                                     "  source: the spread of 20 runs"}),
                              test_support::kProfileFile);
  ASSERT_TRUE(profile) << profile.error();
  const RegressionTolerance& tolerance = profile->GetOrDefault<RegressionTolerance>();
  EXPECT_DOUBLE_EQ(tolerance.bandwidth_fraction, 0.05);
  EXPECT_DOUBLE_EQ(tolerance.time_fraction, 0.25);
  EXPECT_EQ(tolerance.source, "the spread of 20 runs");
  EXPECT_THAT(ParseError(Lines({"name: n", "regression:", "  time_tolerance_fraction: 0.5"})),
              HasSubstr("t.yaml:2:regression.source: missing"));
  EXPECT_THAT(ParseError(Lines({"name: n", "regression:", "  time_tolerence_fraction: 0.5", "  source: s"})),
              HasSubstr("did you mean 'time_tolerance_fraction'"));
}

}  // namespace
}  // namespace gpuconform
