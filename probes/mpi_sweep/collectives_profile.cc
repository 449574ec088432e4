// Reads and registers the profile's `collectives:` section: a list, so it has a reader of its
// own instead of MappingSection's; each item is a mapping read strictly, as a section is, and
// names a collective the MPI sweep worker knows.
#include "probes/mpi_sweep/collectives_profile.h"

#include <limits>
#include <memory>
#include <optional>

#include "harness/core/profile_section.h"
#include "probes/allreduce_sweep/collectives.h"

namespace gpuconform::mpi_sweep {

namespace {

using profile_yaml::Described;
using profile_yaml::Fields;
using profile_yaml::LineOf;
using profile_yaml::ProfileReader;

constexpr const char* kItemKeys[] = {"collective", "nodes", "size_bytes", "busbw_floor_gb_per_s", "source"};

CollectiveFloor ReadCollectiveFloor(ProfileReader& reader, const Fields& fields) {
  CollectiveFloor floor;
  // A floor without its source cannot be trusted or revisited, so every item names one.
  reader.Require(fields, {"collective", "nodes", "size_bytes", "busbw_floor_gb_per_s", "source"},
                 "a collectives floor names its collective, node count, message size, busbw floor and source");
  floor.collective = reader.NonEmptyString(fields, "collective").value_or("");
  if (!floor.collective.empty() && !allreduce_sweep::FindCollective(floor.collective)) {
    reader.Fail(fields.LineOf("collective"), fields.PathOf("collective"),
                "unknown collective '" + floor.collective + "'; the MPI sweep measures " +
                    allreduce_sweep::CollectiveNames());
  }
  floor.nodes = static_cast<int>(reader.PositiveInteger(fields, "nodes").value_or(0));
  floor.size_bytes =
      reader.PositiveInteger(fields, "size_bytes", std::numeric_limits<long long>::max()).value_or(0);
  floor.busbw_floor_gb_per_s = reader.PositiveNumber(fields, "busbw_floor_gb_per_s").value_or(0);
  floor.source = reader.NonEmptyString(fields, "source").value_or("");
  return floor;
}

// `list` is the section's YAML, given at `line`; null where it is refused (the reader's error).
std::shared_ptr<const void> ReadCollectives(ProfileReader& reader, const YAML::Node& list, int line) {
  CollectiveFloors section;
  if (!list.IsSequence()) {
    reader.Fail(line, CollectiveFloors::kKey,
                "expected a list of {collective, nodes, size_bytes, busbw_floor_gb_per_s, source}, got " +
                    Described(list));
    return nullptr;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    const int item_line = item.IsNull() ? line : LineOf(item.Mark());
    std::optional<Fields> fields = reader.Mapping(item, "collectives[" + std::to_string(i) + "]", item_line,
                                                  {std::begin(kItemKeys), std::end(kItemKeys)});
    if (!fields) return nullptr;
    section.floors.push_back(ReadCollectiveFloor(reader, *fields));
  }
  return std::make_shared<const CollectiveFloors>(std::move(section));
}

const ProfileSectionRegistration kRegistration(ProfileSectionDefinition{CollectiveFloors::kKey, ReadCollectives});

}  // namespace

std::vector<CollectiveFloor> FloorsOf(const CollectiveFloors& section, const std::string& collective) {
  std::vector<CollectiveFloor> floors;
  for (const auto& floor : section.floors) {
    if (floor.collective == collective) floors.push_back(floor);
  }
  return floors;
}

}  // namespace gpuconform::mpi_sweep
