// Reads and registers the profile's `checkpoint:` section.
#include "probes/checkpoint_writer/checkpoint_profile.h"

#include <limits>

#include "harness/core/profile_section.h"

namespace gpuconform::checkpoint {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

CheckpointExpectation ReadCheckpoint(ProfileReader& reader, const Fields& fields) {
  CheckpointExpectation checkpoint;
  const auto kMaxBytes = std::numeric_limits<long long>::max();
  checkpoint.dir = reader.NonEmptyString(fields, "dir").value_or("");
  checkpoint.temp_dir = reader.NonEmptyString(fields, "temp_dir").value_or("");
  checkpoint.size_bytes = reader.PositiveInteger(fields, "size_bytes", kMaxBytes).value_or(0);
  checkpoint.copies_kept = static_cast<int>(reader.PositiveInteger(fields, "copies_kept").value_or(1));
  checkpoint.torture_kills = static_cast<int>(reader.PositiveInteger(fields, "torture_kills").value_or(200));
  checkpoint.negative_control_kills =
      static_cast<int>(reader.PositiveInteger(fields, "negative_control_kills").value_or(20));
  checkpoint.test_file_bytes = reader.PositiveInteger(fields, "test_file_bytes", 1LL << 30).value_or(4LL << 20);
  checkpoint.publish_versions = static_cast<int>(reader.PositiveInteger(fields, "publish_versions").value_or(50));
  checkpoint.visibility_deadline_s =
      static_cast<int>(reader.PositiveInteger(fields, "visibility_deadline_s").value_or(10));
  checkpoint.parallel_readers = static_cast<int>(reader.PositiveInteger(fields, "parallel_readers", 256).value_or(8));
  checkpoint.read_bytes_per_reader =
      reader.PositiveInteger(fields, "read_bytes_per_reader", 1LL << 40).value_or(64LL << 20);
  checkpoint.read_floor_gb_per_s = reader.PositiveNumber(fields, "read_floor_gb_per_s").value_or(0);
  checkpoint.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"size_bytes", "read_floor_gb_per_s"});
  return checkpoint;
}

const ProfileSectionRegistration kRegistration(MappingSection<CheckpointExpectation>(
    {"dir", "temp_dir", "size_bytes", "copies_kept", "torture_kills", "negative_control_kills", "test_file_bytes",
     "publish_versions", "visibility_deadline_s", "parallel_readers", "read_bytes_per_reader", "read_floor_gb_per_s",
     "source"},
    ReadCheckpoint));

}  // namespace

}  // namespace gpuconform::checkpoint
