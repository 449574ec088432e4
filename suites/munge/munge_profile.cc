// Reads and registers the profile's `munge:` section.
#include "suites/munge/munge_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform::munge {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

MungeExpectation ReadMunge(ProfileReader& reader, const Fields& fields) {
  MungeExpectation munge;
  munge.present = reader.Bool(fields, "present").value_or(true);
  if (munge.present) {
    reader.Require(fields, {"max_clock_skew_s"}, "required when munge.present is true");
  } else {
    reader.Forbid(fields, {"max_clock_skew_s"}, "munge.present is false");
  }
  munge.max_clock_skew_s = static_cast<int>(reader.PositiveInteger(fields, "max_clock_skew_s").value_or(0));
  munge.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"max_clock_skew_s"});
  return munge;
}

const ProfileSectionRegistration kRegistration(
    MappingSection<MungeExpectation>({"present", "max_clock_skew_s", "source"}, ReadMunge));

}  // namespace

}  // namespace gpuconform::munge
