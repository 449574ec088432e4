#include "harness/core/profile_section.h"

#include <algorithm>

namespace gpuconform {

namespace {

std::vector<ProfileSectionDefinition>& Sections() {
  static std::vector<ProfileSectionDefinition> sections;
  return sections;
}

}  // namespace

const std::vector<ProfileSectionDefinition>& RegisteredProfileSections() { return Sections(); }

ProfileSectionRegistration::ProfileSectionRegistration(ProfileSectionDefinition section) {
  auto& sections = Sections();
  // By key, so the profile's messages do not depend on the link order.
  const auto at = std::lower_bound(sections.begin(), sections.end(), section.key,
                                   [](const ProfileSectionDefinition& s, const std::string& key) { return s.key < key; });
  sections.insert(at, std::move(section));
}

}  // namespace gpuconform
