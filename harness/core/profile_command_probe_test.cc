// A command probe whose argv and deadline the profile chooses (ProbeSpec::command_from_profile):
// the live source runs the profile's command, never longer than the spec's own deadline, and
// does not run it where the profile does not ask for it.
#include <gtest/gtest.h>

#include "harness/core/live_source.h"

namespace gpuconform {
namespace {

ProbeSpec EchoOfTheProfile(int ceiling_ms) {
  return ProfileCommandProbe("echo-name", ProbeScope::kNode, "echo.txt", {{"echo", "fallback"}, ceiling_ms},
                             [](const Profile* profile) -> std::optional<ProbeCommand> {
                               if (profile != nullptr && profile->name == "quiet") return std::nullopt;
                               const std::string name = profile == nullptr ? "none" : profile->name;
                               return ProbeCommand{{"sh", "-c", "sleep 0.$1; echo $0", name, "3"}, 60000};
                             });
}

TEST(ProfileCommandProbe, RunsTheProfilesCommand) {
  Profile profile;
  profile.name = "h100";
  LiveSource live("node7", &profile, DefaultRunOptions());
  const RawOutput out = live.Fetch(EchoOfTheProfile(60000), "node7");
  ASSERT_EQ(out.status, ProbeStatus::kOk) << out.detail;
  EXPECT_EQ(out.text, "h100\n");
  LiveSource capture("node7", nullptr, DefaultRunOptions());
  EXPECT_EQ(capture.Fetch(EchoOfTheProfile(60000), "node7").text, "none\n");
}

TEST(ProfileCommandProbe, TheSpecsDeadlineBoundsTheProfilesOne) {
  Profile profile;
  profile.name = "h100";
  LiveSource live("node7", &profile, DefaultRunOptions());
  const RawOutput out = live.Fetch(EchoOfTheProfile(100), "node7");  // a health check's budget, say
  EXPECT_EQ(out.status, ProbeStatus::kTimedOut);
  EXPECT_NE(out.detail.find("within 100 ms"), std::string::npos) << out.detail;
}

TEST(ProfileCommandProbe, IsNotRunWhereTheProfileDoesNotAskForIt) {
  Profile profile;
  profile.name = "quiet";
  LiveSource live("node7", &profile, DefaultRunOptions());
  const RawOutput out = live.Fetch(EchoOfTheProfile(60000), "node7");
  EXPECT_EQ(out.status, ProbeStatus::kAbsent);
  EXPECT_EQ(out.detail, "node7: `echo fallback` was not run: the profile does not ask for it");
}

}  // namespace
}  // namespace gpuconform
