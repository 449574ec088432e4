// Reads and registers the profile's `health_check:` section.
#include "app/health_check_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform {

namespace {

using profile_yaml::Fields;
using profile_yaml::LineOf;
using profile_yaml::ProfileReader;
using profile_yaml::Shown;

HealthCheckExpectation Read(ProfileReader& reader, const Fields& fields) {
  HealthCheckExpectation health;
  reader.Require(fields, {"quick_checks", "source"}, "list the Suite.Check names the health check runs, and say why");
  health.quick_checks = reader.StringList(fields, "quick_checks").value_or(std::vector<std::string>{});
  for (std::size_t i = 0; i < health.quick_checks.size(); ++i) {
    const std::string& name = health.quick_checks[i];
    const auto dot = name.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == name.size() || name.find('/') != std::string::npos) {
      const YAML::Node item = (*fields.Value("quick_checks"))[i];
      reader.Fail(LineOf(item.Mark()), "health_check.quick_checks[" + std::to_string(i) + "]",
                  "expected Suite.Check (as `gpuconform list` prints it, without /<node>), got " + Shown(name));
    }
  }
  health.source = reader.NonEmptyString(fields, "source").value_or("");
  return health;
}

const ProfileSectionRegistration kRegistration(MappingSection<HealthCheckExpectation>({"quick_checks", "source"}, Read));

}  // namespace

}  // namespace gpuconform
