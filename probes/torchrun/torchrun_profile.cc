// Reads and registers the profile's `torchrun:` section.
#include "probes/torchrun/torchrun_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform::torchrun {

namespace {

using profile_yaml::Fields;
using profile_yaml::LineOf;
using profile_yaml::ProfileReader;
using profile_yaml::Shown;

TorchrunExpectation ReadTorchrun(ProfileReader& reader, const Fields& fields) {
  TorchrunExpectation torchrun;
  torchrun.command = reader.NonEmptyString(fields, "command").value_or(torchrun.command);
  torchrun.nproc_per_node = static_cast<int>(reader.PositiveInteger(fields, "nproc_per_node", 1024).value_or(0));
  torchrun.backend = reader.NonEmptyString(fields, "backend").value_or("");
  if (!torchrun.backend.empty() && torchrun.backend != "nccl" && torchrun.backend != "gloo") {
    reader.Fail(LineOf(fields.Value("backend")->Mark()), "torchrun.backend",
                "expected nccl or gloo, got " + Shown(torchrun.backend));
  }
  torchrun.timeout_s = static_cast<int>(reader.PositiveInteger(fields, "timeout_s", 3600).value_or(60));
  torchrun.allreduce_size_bytes =
      reader.PositiveInteger(fields, "allreduce_size_bytes", 1LL << 34).value_or(torchrun.allreduce_size_bytes);
  torchrun.busbw_floor_gb_per_s = reader.PositiveNumber(fields, "busbw_floor_gb_per_s").value_or(0);
  torchrun.dataload_floor_mb_per_s = reader.PositiveNumber(fields, "dataload_floor_mb_per_s").value_or(0);
  torchrun.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"busbw_floor_gb_per_s", "dataload_floor_mb_per_s"});
  return torchrun;
}

const ProfileSectionRegistration kRegistration(MappingSection<TorchrunExpectation>(
    {"command", "nproc_per_node", "backend", "timeout_s", "allreduce_size_bytes", "busbw_floor_gb_per_s",
     "dataload_floor_mb_per_s", "source"},
    ReadTorchrun));

}  // namespace

}  // namespace gpuconform::torchrun
