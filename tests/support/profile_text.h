// Profile YAML written in a test, for the tests of the profile's frame and of each section's
// reader (harness/profile_section.h) beside the code that owns it. Header-only.
#pragma once

#include <initializer_list>
#include <string>

#include "harness/profile.h"

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

}  // namespace gpuconform::test_support
