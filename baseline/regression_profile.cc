// Reads and registers the profile's `regression:` section.
#include "baseline/regression_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

RegressionTolerance Read(ProfileReader& reader, const Fields& fields) {
  RegressionTolerance tolerance;
  reader.Require(fields, {"source"}, "say where the tolerances come from, e.g. the spread of repeated runs");
  tolerance.bandwidth_fraction =
      reader.PositiveNumber(fields, "bandwidth_tolerance_fraction").value_or(tolerance.bandwidth_fraction);
  tolerance.time_fraction = reader.PositiveNumber(fields, "time_tolerance_fraction").value_or(tolerance.time_fraction);
  tolerance.source = reader.NonEmptyString(fields, "source").value_or(tolerance.source);
  return tolerance;
}

const ProfileSectionRegistration kRegistration(MappingSection<RegressionTolerance>(
    {"bandwidth_tolerance_fraction", "time_tolerance_fraction", "source"}, Read));

}  // namespace

}  // namespace gpuconform
