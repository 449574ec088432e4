// Reads and registers the profile's `nvbandwidth:` section.
#include "probes/nvbandwidth/nvbandwidth_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform::nvbandwidth {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

NvbandwidthExpectation Read(ProfileReader& reader, const Fields& fields) {
  NvbandwidthExpectation nvbandwidth;
  nvbandwidth.host_to_device_gb_per_s = reader.PositiveNumber(fields, "host_to_device_gb_per_s").value_or(0);
  nvbandwidth.device_to_host_gb_per_s = reader.PositiveNumber(fields, "device_to_host_gb_per_s").value_or(0);
  nvbandwidth.device_to_device_gb_per_s = reader.PositiveNumber(fields, "device_to_device_gb_per_s").value_or(0);
  nvbandwidth.binary = reader.NonEmptyString(fields, "binary").value_or(nvbandwidth.binary);
  nvbandwidth.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"host_to_device_gb_per_s", "device_to_host_gb_per_s", "device_to_device_gb_per_s"});
  return nvbandwidth;
}

const ProfileSectionRegistration kRegistration(MappingSection<NvbandwidthExpectation>(
    {"host_to_device_gb_per_s", "device_to_host_gb_per_s", "device_to_device_gb_per_s", "binary", "source"}, Read));

}  // namespace

}  // namespace gpuconform::nvbandwidth
