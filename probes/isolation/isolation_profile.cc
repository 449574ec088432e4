// Reads and registers the profile's `isolation:` section.
#include "probes/isolation/isolation_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform::isolation {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

IsolationLimits ReadIsolation(ProfileReader& reader, const Fields& fields) {
  IsolationLimits limits;
  limits.node_cap = static_cast<int>(reader.PositiveInteger(fields, "node_cap", 1000000).value_or(0));
  limits.deadline_s =
      static_cast<int>(reader.PositiveInteger(fields, "deadline_s", 86400).value_or(kDefaultIsolationDeadlineS));
  limits.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"node_cap", "deadline_s"});
  return limits;
}

const ProfileSectionRegistration kRegistration(
    MappingSection<IsolationLimits>({"node_cap", "deadline_s", "source"}, ReadIsolation));

}  // namespace

}  // namespace gpuconform::isolation
