// The profile's fabric: section: the declared node bandwidth with its source, the blame's
// slow-pair fraction (a fraction below 1), and the built-in profiles' fabrics.
#include "suites/allreduce/fabric_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::allreduce {
namespace {

using namespace test_support::profile_tests;

TEST(FabricProfile, ReadsTheNodeBandwidthAndFloorAndDefaultsTheSlowPairFraction) {
  const std::optional<FabricExpectation> fabric = ParsedSection<FabricExpectation>(
      {"  node_bandwidth_gbit_per_s: 3200", "  allreduce_efficiency_floor_fraction: 0.49", "  source: datasheet"});
  ASSERT_TRUE(fabric);
  EXPECT_DOUBLE_EQ(fabric->node_bandwidth_gbit_per_s, 3200);
  EXPECT_DOUBLE_EQ(fabric->allreduce_efficiency_floor_fraction, 0.49);
  EXPECT_DOUBLE_EQ(fabric->slow_pair_fraction, 0.5);
  EXPECT_EQ(fabric->source, "datasheet");
  EXPECT_FALSE(ParsedSection<FabricExpectation>("name: n\n"));
}

TEST(FabricProfile, RefusesAMissingBandwidthASlowPairFractionOfOneAndNoSource) {
  EXPECT_EQ(ParseError(Lines({"name: n", "fabric:", "  source: s"})),
            "t.yaml:2:fabric.node_bandwidth_gbit_per_s: missing; the fabric section declares each node's bandwidth");
  EXPECT_EQ(ParseError(Lines({"name: n", "fabric:", "  node_bandwidth_gbit_per_s: 100", "  slow_pair_fraction: 1",
                              "  source: s"})),
            "t.yaml:4:fabric.slow_pair_fraction: expected a fraction of the fastest pair below 1, got 1.000000");
  EXPECT_THAT(ParseError(Lines({"name: n", "fabric:", "  node_bandwidth_gbit_per_s: 100"})),
              StartsWith("t.yaml:2:fabric.source: missing"));
  EXPECT_THAT(ParseError(Lines({"name: n", "fabric:", "  node_bandwidth_gbps: 100", "  source: s"})),
              HasSubstr("did you mean 'node_bandwidth_gbit_per_s'"));
}

TEST(FabricProfile, EveryBuiltinProfileDeclaresItsFabricWithASource) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    const std::optional<FabricExpectation> fabric = BuiltinSection<FabricExpectation>(builtin.name);
    ASSERT_TRUE(fabric) << builtin.name;
    EXPECT_GT(fabric->node_bandwidth_gbit_per_s, 0) << builtin.name;
    EXPECT_FALSE(fabric->source.empty()) << builtin.name;
  }
}

}  // namespace
}  // namespace gpuconform::allreduce
