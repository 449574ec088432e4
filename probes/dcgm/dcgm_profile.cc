// Reads and registers the profile's `dcgm:` section.
#include "probes/dcgm/dcgm_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform::dcgm {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

DcgmExpectation ReadDcgm(ProfileReader& reader, const Fields& fields) {
  DcgmExpectation dcgm;
  reader.Require(fields, {"level", "source"}, "a dcgm section names the diagnostic level it runs and why");
  dcgm.level = static_cast<int>(reader.PositiveInteger(fields, "level", 4).value_or(1));
  dcgm.parameters_file = reader.NonEmptyString(fields, "parameters_file").value_or("");
  dcgm.dcgmi = reader.NonEmptyString(fields, "dcgmi").value_or(dcgm.dcgmi);
  dcgm.source = reader.NonEmptyString(fields, "source").value_or("");
  return dcgm;
}

const ProfileSectionRegistration kRegistration(
    MappingSection<DcgmExpectation>({"level", "parameters_file", "dcgmi", "source"}, ReadDcgm));

}  // namespace

}  // namespace gpuconform::dcgm
