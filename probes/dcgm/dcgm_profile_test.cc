// The profile's dcgm: section: the diagnostic level (1 to 4) with its source, DCGM's parameter
// file and binary, and a sourced level on every built-in GPU profile.
#include "probes/dcgm/dcgm_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

namespace gpuconform::dcgm {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using test_support::Lines;
using test_support::ParseError;

TEST(DcgmProfile, ReadsTheLevelAndToolAndRefusesALevelBeyondFour) {
  auto profile = ParseProfile(Lines({"name: n", "dcgm:", "  level: 2", "  parameters_file: /etc/dcgm/diag.yaml",
                                     "  source: DCGM docs"}),
                              test_support::kProfileFile);
  ASSERT_TRUE(profile) << profile.error();
  const DcgmExpectation* dcgm = profile->Get<DcgmExpectation>();
  ASSERT_NE(dcgm, nullptr);
  EXPECT_EQ(dcgm->level, 2);
  EXPECT_EQ(dcgm->parameters_file, "/etc/dcgm/diag.yaml");
  EXPECT_EQ(dcgm->dcgmi, "dcgmi");  // on PATH unless the profile names one
  EXPECT_THAT(ParseError(Lines({"name: n", "dcgm:", "  level: 5", "  source: s"})),
              StartsWith("t.yaml:3:dcgm.level: too large"));
  EXPECT_THAT(ParseError(Lines({"name: n", "dcgm:", "  level: 1"})), HasSubstr("dcgm.source: missing"));
  EXPECT_THAT(ParseError(Lines({"name: n", "dcgm:", "  levl: 1", "  source: s"})), HasSubstr("did you mean 'level'"));
}

// The active GPU test's section: a DCGM level on every GPU profile, none on the local one.
TEST(DcgmProfile, GpuProfilesRunDcgmAtASourcedLevel) {
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8"}) {
    const Profile profile = test_support::BuiltinProfile(name);
    const DcgmExpectation* dcgm = profile.Get<DcgmExpectation>();
    ASSERT_NE(dcgm, nullptr) << name;
    EXPECT_GE(dcgm->level, 1) << name;
    EXPECT_FALSE(dcgm->source.empty()) << name;
  }
  EXPECT_EQ(test_support::BuiltinProfile("local").Get<DcgmExpectation>(), nullptr);
}

}  // namespace
}  // namespace gpuconform::dcgm
