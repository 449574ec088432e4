// Profile sections owned by the suite or tool that reads them (checkpoint:, torchrun:, dcgm:,
// ...): the section's type lives beside that code and registers its reader here, the way a
// suite registers itself, so adding a section touches no file of harness/. The profile's
// frame (harness/core/profile.cc) reads the shared sections itself and hands each registered key's
// YAML to its reader; the result is kept in Profile and read with profile.Section<T>().
// A section type names its key: `static constexpr char kKey[] = "checkpoint";`.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/core/profile.h"
#include "harness/core/profile_reader.h"

namespace gpuconform {

struct ProfileSectionDefinition {
  std::string key;  // the top-level YAML key
  // Reads the section's YAML (found at `line`); problems go to the reader, whose first one is
  // the profile's error. Returns the section (a Section*, type-erased).
  std::function<std::shared_ptr<const void>(profile_yaml::ProfileReader& reader, const YAML::Node& node, int line)>
      read;
};

// Every registered section, by key.
const std::vector<ProfileSectionDefinition>& RegisteredProfileSections();

struct ProfileSectionRegistration {
  explicit ProfileSectionRegistration(ProfileSectionDefinition section);
};

// The usual section: a mapping whose keys are among `allowed`, read by
// `read(reader, fields)` into a Section.
template <typename Section, typename Read>
ProfileSectionDefinition MappingSection(std::vector<std::string_view> allowed, Read read) {
  return {Section::kKey,
          [allowed = std::move(allowed), read](profile_yaml::ProfileReader& reader, const YAML::Node& node,
                                               int line) -> std::shared_ptr<const void> {
            std::optional<profile_yaml::Fields> fields = reader.Mapping(node, Section::kKey, line, allowed);
            if (!fields) return nullptr;
            return std::make_shared<const Section>(read(reader, *fields));
          }};
}

}  // namespace gpuconform
