// The profile's collectives: section, a list of busbw floors read strictly with
// file:line:collectives[i].key; the local profile's measured floors; no GPU profile has one.
#include "probes/mpi_sweep/collectives_profile.h"

#include "tests/support/profile_text.h"

namespace gpuconform::mpi_sweep {
namespace {

using namespace test_support::profile_tests;

TEST(CollectivesProfile, ReadsEachFloor) {
  const auto section = ParsedSection<CollectiveFloors>({"  - collective: alltoall", "    nodes: 3",
                                                        "    size_bytes: 67108864", "    busbw_floor_gb_per_s: 0.05",
                                                        "    source: measured"});
  ASSERT_TRUE(section);
  ASSERT_EQ(section->floors.size(), 1u);
  const CollectiveFloor& floor = section->floors.front();
  EXPECT_EQ(floor.collective, "alltoall");
  EXPECT_EQ(floor.nodes, 3);
  EXPECT_EQ(floor.size_bytes, 67108864);
  EXPECT_DOUBLE_EQ(floor.busbw_floor_gb_per_s, 0.05);
  EXPECT_EQ(floor.source, "measured");
  EXPECT_EQ(FloorsOf(*section, "alltoall").size(), 1u);
  EXPECT_TRUE(FloorsOf(*section, "allgather").empty());
}

TEST(CollectivesProfile, RefusesAnUnknownCollectiveNamingTheKnownOnes) {
  EXPECT_EQ(ParseError(Lines({"name: n", "collectives:", "  - collective: allreduce", "    nodes: 2",
                              "    size_bytes: 1048576", "    busbw_floor_gb_per_s: 1", "    source: x"})),
            "t.yaml:3:collectives[0].collective: unknown collective 'allreduce'; the MPI sweep measures alltoall, "
            "allgather, reduce_scatter");
}

TEST(CollectivesProfile, RequiresASource) {
  EXPECT_THAT(ParseError(Lines({"name: n", "collectives:", "  - collective: allgather", "    nodes: 2",
                                "    size_bytes: 1048576", "    busbw_floor_gb_per_s: 1"})),
              HasSubstr("t.yaml:3:collectives[0].source: missing"));
}

TEST(CollectivesProfile, RefusesAnUnknownKey) {
  EXPECT_THAT(ParseError(Lines({"name: n", "collectives:", "  - collective: allgather", "    nodes: 2",
                                "    size_bytes: 1048576", "    busbw_floor: 1", "    source: x"})),
              HasSubstr("t.yaml:6:collectives[0].busbw_floor: unknown key"));
}

TEST(CollectivesProfile, RefusesANonPositiveFloorAndAMapping) {
  EXPECT_THAT(ParseError(Lines({"name: n", "collectives:", "  - collective: allgather", "    nodes: 2",
                                "    size_bytes: 1048576", "    busbw_floor_gb_per_s: 0", "    source: x"})),
              HasSubstr("t.yaml:6:collectives[0].busbw_floor_gb_per_s:"));
  EXPECT_THAT(ParseError(Lines({"name: n", "collectives:", "  collective: allgather"})),
              HasSubstr("t.yaml:2:collectives: expected a list of {collective, nodes, size_bytes, "
                        "busbw_floor_gb_per_s, source}"));
}

TEST(CollectivesProfile, LocalFloorsAreMeasuredForEveryCollective) {
  const auto section = BuiltinSection<CollectiveFloors>("local");
  ASSERT_TRUE(section);
  for (const char* collective : {"alltoall", "allgather", "reduce_scatter"}) {
    const auto floors = FloorsOf(*section, collective);
    ASSERT_FALSE(floors.empty()) << collective;
    for (const auto& floor : floors) EXPECT_THAT(floor.source, HasSubstr("measured")) << collective;
  }
}

TEST(CollectivesProfile, NoGpuProfileStatesAHostBufferFloor) {
  // No public source gives a host-buffer MPI alltoall floor for these systems: their checks skip.
  for (const char* name : kGpuProfiles) EXPECT_FALSE(BuiltinSection<CollectiveFloors>(name)) << name;
}

}  // namespace
}  // namespace gpuconform::mpi_sweep
