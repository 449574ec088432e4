// A capture's launch facts, written into the snapshot and read back for the replay.
#include <gtest/gtest.h>

#include "harness/world/launch_ranks_file.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

TEST(LaunchRanksFile, ReadsBackWhatItWrites) {
  const std::vector<RankInfo> ranks = {{0, "node1", "SLURM_PROCID=0\nSLURM_NODEID=0\n"}, {1, "node2", ""},
                                       {2, "node3", "MASTER_ADDR=10.0.0.1\n"}};
  const auto back = test_support::Parsed(ParseLaunchRanks(FormatLaunchRanks(ranks), "launch-ranks.txt"));
  ASSERT_EQ(back.size(), 3u);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    EXPECT_EQ(back[i].rank, ranks[i].rank);
    EXPECT_EQ(back[i].host, ranks[i].host);
    EXPECT_EQ(back[i].env_text, ranks[i].env_text);
  }
}

TEST(LaunchRanksFile, AnythingElseIsAnErrorNamingTheLine) {
  test_support::ExpectErrorStartingWith(ParseLaunchRanks("  X=1\n", "f"), "f:1: ");
  test_support::ExpectErrorStartingWith(ParseLaunchRanks("rank 0 node1\nrank x node2\n", "f"), "f:2: ");
  test_support::ExpectErrorStartingWith(ParseLaunchRanks("rank -1 node1\n", "f"), "f:1: ");
  EXPECT_TRUE(ParseLaunchRanks("# nothing\n", "f"));
}

}  // namespace
}  // namespace gpuconform
