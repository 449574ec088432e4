// Reads and registers the profile's `allreduce_latency:` section, a list read item by item,
// each item strictly, and with a size inside the latency band the sweep measures.
#include "probes/allreduce_sweep/latency_profile.h"

#include <memory>
#include <optional>

#include "harness/core/profile_section.h"

namespace gpuconform::allreduce_sweep {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

constexpr const char* kKeys[] = {"nodes", "size_bytes", "time_ceiling_us", "source"};

std::shared_ptr<const void> ReadLatency(ProfileReader& reader, const YAML::Node& list, int line) {
  if (!list.IsSequence()) {
    reader.Fail(line, LatencyCeilings::kKey,
                "expected a list of {nodes, size_bytes, time_ceiling_us, source}, got " + profile_yaml::Described(list));
    return nullptr;
  }
  LatencyCeilings section;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const int item_line = list[i].IsNull() ? line : profile_yaml::LineOf(list[i].Mark());
    const std::string path = std::string(LatencyCeilings::kKey) + "[" + std::to_string(i) + "]";
    std::optional<Fields> fields = reader.Mapping(list[i], path, item_line, {std::begin(kKeys), std::end(kKeys)});
    if (!fields) return nullptr;
    // A ceiling without its source cannot be trusted or revisited.
    reader.Require(*fields, {"nodes", "size_bytes", "time_ceiling_us", "source"},
                   "a latency ceiling names its node count, message size, time ceiling and source");
    LatencyCeiling ceiling;
    ceiling.nodes = static_cast<int>(reader.PositiveInteger(*fields, "nodes").value_or(0));
    ceiling.size_bytes = reader.PositiveInteger(*fields, "size_bytes", kLargestLatencyBytes).value_or(0);
    ceiling.time_ceiling_us = reader.PositiveNumber(*fields, "time_ceiling_us").value_or(0);
    ceiling.source = reader.NonEmptyString(*fields, "source").value_or("");
    section.ceilings.push_back(ceiling);
  }
  return std::make_shared<const LatencyCeilings>(std::move(section));
}

const ProfileSectionRegistration kRegistration(ProfileSectionDefinition{LatencyCeilings::kKey, ReadLatency});

}  // namespace

std::vector<long long> LatencySizes() { return {8, 64, 512, 4096, 32768, kLargestLatencyBytes}; }

}  // namespace gpuconform::allreduce_sweep
