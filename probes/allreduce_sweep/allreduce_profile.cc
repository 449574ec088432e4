// Reads and registers the profile's `allreduce:` section: a list, so it has a reader of its
// own instead of MappingSection's; each item is a mapping read strictly, as a section is.
#include "probes/allreduce_sweep/allreduce_profile.h"

#include <limits>
#include <memory>
#include <optional>

#include "harness/core/profile_section.h"

namespace gpuconform::allreduce_sweep {

namespace {

using profile_yaml::Described;
using profile_yaml::Fields;
using profile_yaml::LineOf;
using profile_yaml::ProfileReader;

AllreduceFloor ReadAllreduceFloor(ProfileReader& reader, const Fields& fields) {
  AllreduceFloor floor;
  reader.Require(fields, {"nodes", "size_bytes", "busbw_floor_gb_per_s"},
                 "an allreduce floor names its node count, message size and busbw floor");
  floor.nodes = static_cast<int>(reader.PositiveInteger(fields, "nodes").value_or(0));
  floor.size_bytes =
      reader.PositiveInteger(fields, "size_bytes", std::numeric_limits<long long>::max()).value_or(0);
  floor.busbw_floor_gb_per_s = reader.PositiveNumber(fields, "busbw_floor_gb_per_s").value_or(0);
  floor.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"nodes", "size_bytes", "busbw_floor_gb_per_s"});
  return floor;
}

// `list` is the section's YAML, given at `line`; null where it is refused (the reader's error).
std::shared_ptr<const void> ReadAllreduce(ProfileReader& reader, const YAML::Node& list, int line) {
  AllreduceFloors section;
  std::vector<AllreduceFloor>& floors = section.floors;
  if (!list.IsSequence()) {
    reader.Fail(
        line, "allreduce",
        "expected a list of {nodes, size_bytes, busbw_floor_gb_per_s, source}, got " + Described(list));
    return nullptr;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node item = list[i];
    const int item_line = item.IsNull() ? line : LineOf(item.Mark());
    std::optional<Fields> fields = reader.Mapping(item, "allreduce[" + std::to_string(i) + "]", item_line,
                                                  {"nodes", "size_bytes", "busbw_floor_gb_per_s", "source"});
    if (!fields) return nullptr;
    floors.push_back(ReadAllreduceFloor(reader, *fields));
  }
  return std::make_shared<const AllreduceFloors>(std::move(section));
}

const ProfileSectionRegistration kRegistration(ProfileSectionDefinition{AllreduceFloors::kKey, ReadAllreduce});

}  // namespace

}  // namespace gpuconform::allreduce_sweep
