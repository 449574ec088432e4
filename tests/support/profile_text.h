// Profile YAML written in a test, for the tests of the profile's frame and of each section's
// reader (harness/core/profile_section.h) beside the code that owns it: the text (Lines), what
// parsing it gives (ParseError, ParsedSection), a built-in profile's section
// (BuiltinSection, ForEachGpuProfileSection), and the names a section's test uses (`using
// namespace test_support::profile_tests;`). Header-only.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "tests/support/test_support.h"

namespace gpuconform::test_support {

inline constexpr char kProfileFile[] = "t.yaml";

// Joins lines with '\n' so that a test's line numbers can be read off its source.
inline std::string Lines(std::initializer_list<const char*> lines) {
  std::string text;
  for (const char* line : lines) text += std::string(line) + "\n";
  return text;
}

// The error ParseProfile gives for the text (read as t.yaml), or "(parsed without error)".
inline std::string ParseError(const std::string& yaml_text) {
  Result<Profile> profile = ParseProfile(yaml_text, kProfileFile);
  if (profile.ok()) return "(parsed without error)";
  return profile.error();
}

// The section of the profile the text parses to (read as t.yaml), or nullopt where the profile
// has none. A text that does not parse records a failure naming the error.
template <typename Section>
std::optional<Section> ParsedSection(const std::string& yaml_text) {
  Result<Profile> profile = ParseProfile(yaml_text, kProfileFile);
  EXPECT_TRUE(profile) << profile.error();
  const Section* section = profile ? profile->Get<Section>() : nullptr;
  return section ? std::optional<Section>(*section) : std::nullopt;
}

// The same for a profile of the section alone: `lines` (indented, as under its key) follow
// "name: n" and the section's key.
template <typename Section>
std::optional<Section> ParsedSection(std::initializer_list<const char*> lines) {
  return ParsedSection<Section>("name: n\n" + std::string(Section::kKey) + ":\n" + Lines(lines));
}

// The section of the built-in profile `name`, or nullopt where that profile has none.
template <typename Section>
std::optional<Section> BuiltinSection(const std::string& name) {
  const Profile profile = BuiltinProfile(name);
  const Section* section = profile.Get<Section>();
  return section ? std::optional<Section>(*section) : std::nullopt;
}

// The built-in profiles of GPU nodes, which state most sections (the local one, of a CPU-only
// machine, states fewer).
inline constexpr const char* kGpuProfiles[] = {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8"};

// Calls `check` with the section of each GPU profile, under that profile's name; a profile
// without the section, or whose section does not name its source, is a failure.
template <typename Section, typename Check>
void ForEachGpuProfileSection(Check check) {
  for (const char* name : kGpuProfiles) {
    SCOPED_TRACE(name);
    const std::optional<Section> section = BuiltinSection<Section>(name);
    if (!section) {
      ADD_FAILURE() << name << " has no " << Section::kKey << " section";
      continue;
    }
    EXPECT_FALSE(section->source.empty());
    check(*section);
  }
}

// What a section's parse test names unqualified.
namespace profile_tests {
using ::testing::HasSubstr;
using ::testing::StartsWith;
using test_support::BuiltinSection;
using test_support::ForEachGpuProfileSection;
using test_support::kGpuProfiles;
using test_support::Lines;
using test_support::ParsedSection;
using test_support::ParseError;
}  // namespace profile_tests

}  // namespace gpuconform::test_support
