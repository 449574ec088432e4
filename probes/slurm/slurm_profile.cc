// Reads and registers the profile's `slurm:` section.
#include "probes/slurm/slurm_profile.h"

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

#include "harness/core/profile_section.h"

namespace gpuconform::slurm {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;
using profile_yaml::Shown;

// "gpu:8" or "gpu:h100:8": the count is the last field.
std::optional<long long> GresCount(std::string_view gres) {
  const std::size_t colon = gres.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const std::string_view count = gres.substr(colon + 1);
  long long number = 0;
  const auto [stop, error] = std::from_chars(count.data(), count.data() + count.size(), number);
  if (error != std::errc() || stop != count.data() + count.size() || number <= 0) return std::nullopt;
  return number;
}

SlurmExpectation ReadSlurm(ProfileReader& reader, const Fields& fields) {
  SlurmExpectation slurm;
  reader.Require(fields, {"gres", "gpus_per_node"}, "a slurm section states the GPU GRES of a node");
  slurm.gres = reader.NonEmptyString(fields, "gres").value_or("");
  const std::optional<long long> gres_count = GresCount(slurm.gres);
  if (fields.Has("gres") && !slurm.gres.empty() && !gres_count) {
    reader.Fail(fields.LineOf("gres"), fields.PathOf("gres"),
                "expected 'NAME:COUNT' or 'NAME:TYPE:COUNT' such as 'gpu:8', got " + Shown(slurm.gres));
  }
  slurm.gpus_per_node = static_cast<int>(reader.PositiveInteger(fields, "gpus_per_node").value_or(0));
  if (gres_count && slurm.gpus_per_node > 0 && *gres_count != slurm.gpus_per_node) {
    reader.Fail(fields.LineOf("gpus_per_node"), fields.PathOf("gpus_per_node"),
                std::to_string(slurm.gpus_per_node) + " disagrees with slurm.gres " + Shown(slurm.gres));
  }
  slurm.partition = reader.String(fields, "partition").value_or("");
  slurm.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"gpus_per_node"});
  return slurm;
}

const ProfileSectionRegistration kRegistration(
    MappingSection<SlurmExpectation>({"gres", "gpus_per_node", "partition", "source"}, ReadSlurm));

}  // namespace

}  // namespace gpuconform::slurm
