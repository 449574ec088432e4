// The profile's munge: section: a clock-skew limit with its source when MUNGE is present,
// none when it is not, and the credential TTL every built-in profile states.
#include "suites/munge/munge_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

namespace gpuconform::munge {
namespace {

using test_support::Lines;
using test_support::ParseError;

TEST(MungeProfile, ReadsTheClockSkewLimitWithItsSource) {
  const Profile profile = test_support::Parsed(ParseProfile(
      Lines({"name: n", "munge:", "  max_clock_skew_s: 60", "  source: our site policy"}), test_support::kProfileFile));
  const MungeExpectation* munge = profile.Get<MungeExpectation>();
  ASSERT_NE(munge, nullptr);
  EXPECT_TRUE(munge->present);
  EXPECT_EQ(munge->max_clock_skew_s, 60);
  EXPECT_EQ(munge->source, "our site policy");
  EXPECT_EQ(test_support::Parsed(ParseProfile("name: minimal\n", test_support::kProfileFile)).Get<MungeExpectation>(),
            nullptr)
      << "a profile without the section does not say whether MUNGE is expected";
}

TEST(MungeProfile, RequiresALimitWhenPresentAndRefusesOneWhenAbsent) {
  EXPECT_EQ(ParseError(Lines({"name: n", "munge:", "  source: x"})),
            "t.yaml:2:munge.max_clock_skew_s: missing; required when munge.present is true");
  EXPECT_EQ(ParseError(Lines({"name: n", "munge:", "  present: false", "  max_clock_skew_s: 300", "  source: x"})),
            "t.yaml:4:munge.max_clock_skew_s: not allowed: munge.present is false");
  const Profile none = test_support::Parsed(
      ParseProfile(Lines({"name: n", "munge:", "  present: false"}), test_support::kProfileFile));
  ASSERT_NE(none.Get<MungeExpectation>(), nullptr);
  EXPECT_FALSE(none.Get<MungeExpectation>()->present);
}

// A present MUNGE's limit names its source; the contract profiles use MUNGE's default
// credential TTL, 300 s.
TEST(MungeProfile, BuiltinProfilesLimitTheSkewToTheDefaultTtl) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    const Profile profile = test_support::BuiltinProfile(builtin.name);
    const MungeExpectation* munge = profile.Get<MungeExpectation>();
    if (munge && munge->present) EXPECT_FALSE(munge->source.empty()) << builtin.name;
  }
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8", "local"}) {
    const Profile profile = test_support::BuiltinProfile(name);
    const MungeExpectation* munge = profile.Get<MungeExpectation>();
    ASSERT_NE(munge, nullptr) << name;
    EXPECT_TRUE(munge->present) << name;
    EXPECT_EQ(munge->max_clock_skew_s, 300) << name;
  }
}

}  // namespace
}  // namespace gpuconform::munge
