// Reads and registers the profile's `nccl_collectives:` and `nccl_init:` sections.
#include "probes/nccl_run/nccl_run_profile.h"

#include <algorithm>
#include <memory>
#include <set>

#include "harness/core/profile_section.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/sweep.h"

namespace gpuconform::nccl_run {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

// `nccl_collectives:` is read by the reader registered for `collectives:`, so both lists keep
// one set of keys and one set of rules; its messages name the line of this section's item.
std::shared_ptr<const void> ReadNcclCollectives(ProfileReader& reader, const YAML::Node& list, int line) {
  const auto& sections = RegisteredProfileSections();
  const auto mpi = std::find_if(sections.begin(), sections.end(), [](const ProfileSectionDefinition& section) {
    return section.key == mpi_sweep::CollectiveFloors::kKey;
  });
  if (mpi == sections.end()) {
    reader.Fail(line, NcclCollectiveFloors::kKey, "this build has no reader for the collectives list");
    return nullptr;
  }
  const std::shared_ptr<const void> read = mpi->read(reader, list, line);
  if (read == nullptr) return nullptr;
  return std::make_shared<const NcclCollectiveFloors>(
      NcclCollectiveFloors{static_cast<const mpi_sweep::CollectiveFloors*>(read.get())->floors});
}

NcclInitCeiling ReadNcclInit(ProfileReader& reader, const Fields& fields) {
  NcclInitCeiling ceiling;
  reader.Require(fields, {"ceiling_s", "source"}, "nccl_init names its ceiling and the source of it");
  ceiling.ceiling_s = reader.PositiveNumber(fields, "ceiling_s").value_or(0);
  ceiling.source = reader.NonEmptyString(fields, "source").value_or("");
  return ceiling;
}

const ProfileSectionRegistration kCollectives(ProfileSectionDefinition{NcclCollectiveFloors::kKey,
                                                                       ReadNcclCollectives});
const ProfileSectionRegistration kInit(MappingSection<NcclInitCeiling>({"ceiling_s", "source"}, ReadNcclInit));

}  // namespace

std::vector<std::string> NcclCollectivesWithFloors(const Profile* profile) {
  std::vector<std::string> names;
  if (profile == nullptr) return names;
  const auto& floors = profile->GetOrDefault<NcclCollectiveFloors>().floors;
  for (const auto& collective : allreduce_sweep::BeyondAllreduce()) {
    const auto named = [&](const auto& floor) { return floor.collective == collective.name; };
    if (std::any_of(floors.begin(), floors.end(), named)) names.push_back(collective.name);
  }
  return names;
}

std::vector<long long> NcclCollectiveSizes(const Profile* profile, const RunOptions& options) {
  constexpr long long kLargest = 16 * allreduce_sweep::kGiB;
  const long long cap = options.allreduce_max_bytes > 0 ? std::min(kLargest, options.allreduce_max_bytes) : kLargest;
  std::set<long long> sizes;  // ascending, each once
  if (profile != nullptr) {
    for (const auto& floor : profile->GetOrDefault<NcclCollectiveFloors>().floors) {
      sizes.insert(std::min(floor.size_bytes, cap));
    }
  }
  return {sizes.begin(), sizes.end()};
}

}  // namespace gpuconform::nccl_run
