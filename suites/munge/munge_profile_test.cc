// The profile's munge: section: a clock-skew limit with its source when MUNGE is present,
// none when it is not, and the credential TTL every built-in profile states.
#include "suites/munge/munge_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::munge {
namespace {

using namespace test_support::profile_tests;

TEST(MungeProfile, ReadsTheClockSkewLimitWithItsSource) {
  const std::optional<MungeExpectation> munge =
      ParsedSection<MungeExpectation>({"  max_clock_skew_s: 60", "  source: our site policy"});
  ASSERT_TRUE(munge);
  EXPECT_TRUE(munge->present);
  EXPECT_EQ(munge->max_clock_skew_s, 60);
  EXPECT_EQ(munge->source, "our site policy");
  EXPECT_FALSE(ParsedSection<MungeExpectation>("name: minimal\n"))
      << "a profile without the section does not say whether MUNGE is expected";
}

TEST(MungeProfile, RequiresALimitWhenPresentAndRefusesOneWhenAbsent) {
  EXPECT_EQ(ParseError(Lines({"name: n", "munge:", "  source: x"})),
            "t.yaml:2:munge.max_clock_skew_s: missing; required when munge.present is true");
  EXPECT_EQ(ParseError(Lines({"name: n", "munge:", "  present: false", "  max_clock_skew_s: 300", "  source: x"})),
            "t.yaml:4:munge.max_clock_skew_s: not allowed: munge.present is false");
  const std::optional<MungeExpectation> none = ParsedSection<MungeExpectation>({"  present: false"});
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->present);
}

// A present MUNGE's limit names its source; the contract profiles use MUNGE's default
// credential TTL, 300 s.
TEST(MungeProfile, BuiltinProfilesLimitTheSkewToTheDefaultTtl) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    const std::optional<MungeExpectation> munge = BuiltinSection<MungeExpectation>(builtin.name);
    if (munge && munge->present) EXPECT_FALSE(munge->source.empty()) << builtin.name;
  }
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8", "local"}) {
    const std::optional<MungeExpectation> munge = BuiltinSection<MungeExpectation>(name);
    ASSERT_TRUE(munge) << name;
    EXPECT_TRUE(munge->present) << name;
    EXPECT_EQ(munge->max_clock_skew_s, 300) << name;
  }
}

}  // namespace
}  // namespace gpuconform::munge
