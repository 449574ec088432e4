// Reads and registers the profile's `fabric:` section.
#include "suites/allreduce/fabric_profile.h"

#include "harness/core/profile_section.h"

namespace gpuconform::allreduce {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

FabricExpectation ReadFabric(ProfileReader& reader, const Fields& fields) {
  FabricExpectation fabric;
  reader.Require(fields, {"node_bandwidth_gbit_per_s"}, "the fabric section declares each node's bandwidth");
  fabric.node_bandwidth_gbit_per_s = reader.PositiveNumber(fields, "node_bandwidth_gbit_per_s").value_or(0);
  fabric.allreduce_efficiency_floor_fraction =
      reader.PositiveNumber(fields, "allreduce_efficiency_floor_fraction").value_or(0);
  fabric.slow_pair_fraction = reader.PositiveNumber(fields, "slow_pair_fraction").value_or(fabric.slow_pair_fraction);
  if (fabric.slow_pair_fraction >= 1) {
    reader.Fail(fields.LineOf("slow_pair_fraction"), fields.PathOf("slow_pair_fraction"),
                "expected a fraction of the fastest pair below 1, got " + std::to_string(fabric.slow_pair_fraction));
  }
  fabric.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"node_bandwidth_gbit_per_s", "allreduce_efficiency_floor_fraction",
                                   "slow_pair_fraction"});
  return fabric;
}

const ProfileSectionRegistration kRegistration(MappingSection<FabricExpectation>(
    {"node_bandwidth_gbit_per_s", "allreduce_efficiency_floor_fraction", "slow_pair_fraction", "source"},
    ReadFabric));

}  // namespace

}  // namespace gpuconform::allreduce
