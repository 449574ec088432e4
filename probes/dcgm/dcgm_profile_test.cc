// The profile's dcgm: section: the diagnostic level (1 to 4) with its source, DCGM's parameter
// file and binary, and a sourced level on every built-in GPU profile.
#include "probes/dcgm/dcgm_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::dcgm {
namespace {

using namespace test_support::profile_tests;

TEST(DcgmProfile, ReadsTheLevelAndToolAndRefusesALevelBeyondFour) {
  const std::optional<DcgmExpectation> dcgm =
      ParsedSection<DcgmExpectation>({"  level: 2", "  parameters_file: /etc/dcgm/diag.yaml", "  source: DCGM docs"});
  ASSERT_TRUE(dcgm);
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
  ForEachGpuProfileSection<DcgmExpectation>([](const DcgmExpectation& dcgm) { EXPECT_GE(dcgm.level, 1); });
  EXPECT_FALSE(BuiltinSection<DcgmExpectation>("local"));
}

}  // namespace
}  // namespace gpuconform::dcgm
