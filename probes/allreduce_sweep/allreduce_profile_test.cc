// The profile's allreduce: section, a list of busbw floors: each floor read strictly with
// file:line:allreduce[i].key, and the built-in profiles' published floors.
#include "probes/allreduce_sweep/allreduce_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::allreduce_sweep {
namespace {

using namespace test_support::profile_tests;

constexpr long long kSixteenGiB = 17179869184;
constexpr long long kEightGiB = 8589934592;
constexpr long long kSixtyFourMiB = 67108864;

const std::vector<AllreduceFloor>& Floors(const Profile& profile) {
  return profile.GetOrDefault<AllreduceFloors>().floors;
}

const AllreduceFloor* FloorFor(const Profile& profile, int nodes) {
  for (const AllreduceFloor& floor : Floors(profile)) {
    if (floor.nodes == nodes) return &floor;
  }
  return nullptr;
}

// The error for a profile whose one allreduce entry has these values, and a source.
std::string OneEntryError(const std::string& nodes, const std::string& size_bytes, const std::string& busbw_floor) {
  return ParseError("name: n\nallreduce:\n  - nodes: " + nodes + "\n    size_bytes: " + size_bytes +
                    "\n    busbw_floor_gb_per_s: " + busbw_floor + "\n    source: x\n");
}

// ---- built-in profiles ------------------------------------------------------------------

TEST(AllreduceProfile, EveryBuiltinFloorNamesItsSource) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    const Profile profile = test_support::BuiltinProfile(builtin.name);
    for (const AllreduceFloor& floor : Floors(profile)) {
      EXPECT_FALSE(floor.source.empty()) << builtin.name;
    }
  }
}

// Each 8-GPU profile's one-node floor at 16 GiB, from Azure's health checks for its VM size.
TEST(AllreduceProfile, GpuProfilesHaveThePublishedOneNodeFloor) {
  const struct {
    const char* profile;
    double busbw_floor_gb_per_s;
    const char* source;
  } kPublished[] = {{"h100-sxm-8", 460, "nd96isr_h100_v5"},
                    {"h200-sxm-8", 431, "nd96isr_h200_v5"},
                    {"a100-sxm-8", 228, "nd96amsr_a100_v4"}};
  for (const auto& published : kPublished) {
    const Profile profile = test_support::BuiltinProfile(published.profile);
    const AllreduceFloor* one_node = FloorFor(profile, 1);
    ASSERT_NE(one_node, nullptr) << published.profile;
    EXPECT_EQ(one_node->size_bytes, kSixteenGiB) << published.profile;
    EXPECT_DOUBLE_EQ(one_node->busbw_floor_gb_per_s, published.busbw_floor_gb_per_s) << published.profile;
    EXPECT_THAT(one_node->source, HasSubstr(published.source)) << published.profile;
  }
}

TEST(AllreduceProfile, A100HasThePublishedTwoNodeFloor) {
  const Profile profile = test_support::BuiltinProfile("a100-sxm-8");
  const AllreduceFloor* two_nodes = FloorFor(profile, 2);
  ASSERT_NE(two_nodes, nullptr);
  EXPECT_EQ(two_nodes->size_bytes, kEightGiB);
  EXPECT_DOUBLE_EQ(two_nodes->busbw_floor_gb_per_s, 180);
}

TEST(AllreduceProfile, LocalFloorSeparatesEns1FromEth0) {
  const Profile profile = test_support::BuiltinProfile("local");
  const AllreduceFloor* floor = FloorFor(profile, 3);
  ASSERT_NE(floor, nullptr);
  EXPECT_EQ(floor->size_bytes, kSixtyFourMiB);
  // Measured: eth0 gives about 0.012 GB/s busbw; the slowest ens1 launch about 0.11 GB/s.
  EXPECT_GT(floor->busbw_floor_gb_per_s, 0.012 * 2);
  EXPECT_LT(floor->busbw_floor_gb_per_s, 0.11);
}

// ---- what is accepted -------------------------------------------------------------------

TEST(AllreduceProfile, AProfileWithoutTheSectionHasNoFloors) {
  const Profile profile = test_support::Parsed(ParseProfile("name: minimal\n", test_support::kProfileFile));
  EXPECT_EQ(profile.Get<AllreduceFloors>(), nullptr);
  EXPECT_TRUE(Floors(profile).empty());
}

TEST(AllreduceProfile, AcceptsSizesBeyondThirtyTwoBits) {
  Result<Profile> profile =
      ParseProfile(Lines({"name: n", "allreduce:", "  - nodes: 1", "    size_bytes: 17179869184",
                          "    busbw_floor_gb_per_s: 460.5", "    source: x"}),
                   test_support::kProfileFile);
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_EQ(Floors(*profile).at(0).size_bytes, kSixteenGiB);
  EXPECT_DOUBLE_EQ(Floors(*profile).at(0).busbw_floor_gb_per_s, 460.5);
}

// ---- what is refused, with file:line:allreduce[i].key -------------------------------------

TEST(AllreduceProfile, RejectsUnknownKeyInAnEntry) {
  EXPECT_THAT(
      ParseError(Lines({"name: n", "allreduce:", "  - nodes: 1", "    size_bytes: 8",
                        "    busbw_floor_gbps: 1", "    source: x"})),
      StartsWith(
          "t.yaml:5:allreduce[0].busbw_floor_gbps: unknown key; did you mean 'busbw_floor_gb_per_s'?"));
}

TEST(AllreduceProfile, RejectsNonFiniteNumbers) {
  EXPECT_EQ(OneEntryError("1", "8", ".inf"), "t.yaml:5:allreduce[0].busbw_floor_gb_per_s: expected a number, got '.inf'");
  EXPECT_EQ(OneEntryError("1", "8", "nan"), "t.yaml:5:allreduce[0].busbw_floor_gb_per_s: expected a number, got 'nan'");
}

TEST(AllreduceProfile, RejectsAMappingOrNothingWhereTheListBelongs) {
  EXPECT_THAT(ParseError(Lines({"name: n", "allreduce:", "  nodes: 1"})),
              StartsWith("t.yaml:2:allreduce: expected a list of {nodes, size_bytes, busbw_floor_gb_per_s, "
                         "source}, got a mapping"));
  EXPECT_EQ(ParseError(Lines({"name: n", "allreduce:"})),
            "t.yaml:2:allreduce: expected a list of {nodes, size_bytes, busbw_floor_gb_per_s, source}, got nothing");
}

TEST(AllreduceProfile, RejectsAnEntryThatIsNotAMapping) {
  EXPECT_EQ(ParseError(Lines({"name: n", "allreduce:", "  - 460"})),
            "t.yaml:3:allreduce[0]: expected a mapping, got '460'");
  EXPECT_EQ(ParseError(Lines({"name: n", "allreduce:", "  -"})), "t.yaml:2:allreduce[0]: expected a mapping, got nothing");
}

TEST(AllreduceProfile, RejectsZeroAndNegativeCounts) {
  EXPECT_EQ(OneEntryError("0", "8", "1"), "t.yaml:3:allreduce[0].nodes: must be positive, got '0'");
  EXPECT_EQ(OneEntryError("1", "8", "-0.5"), "t.yaml:5:allreduce[0].busbw_floor_gb_per_s: must be positive, got '-0.5'");
}

TEST(AllreduceProfile, RejectsCountsBeyondTheirType) {
  EXPECT_EQ(OneEntryError("1", "99999999999999999999", "1"),
            "t.yaml:4:allreduce[0].size_bytes: too large, got '99999999999999999999'");
}

TEST(AllreduceProfile, RejectsAFloorWithoutSourceAtItsEntryLine) {
  EXPECT_THAT(ParseError(Lines({"name: n", "allreduce:", "  - nodes: 1", "    size_bytes: 8",
                                "    busbw_floor_gb_per_s: 1", "  - nodes: 2", "    size_bytes: 8",
                                "    busbw_floor_gb_per_s: 1", "    source: x"})),
              StartsWith("t.yaml:3:allreduce[0].source: missing;"));
}

TEST(AllreduceProfile, RequiresTheNodeCountSizeAndFloorOfEachEntry) {
  EXPECT_EQ(
      ParseError(Lines({"name: n", "allreduce:", "  - nodes: 1", "    source: x"})),
      "t.yaml:3:allreduce[0].size_bytes: missing; an allreduce floor names its node count, message size and "
      "busbw floor");
}

}  // namespace
}  // namespace gpuconform::allreduce_sweep
