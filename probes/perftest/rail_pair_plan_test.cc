#include "probes/perftest/rail_pair_plan.h"

#include <gtest/gtest.h>

#include <set>

namespace gpuconform::perftest {
namespace {

const Rail kRail0{"mlx5_0", 1};
const Rail kRail1{"mlx5_1", 1};

RailsByNode Nodes(int count, const std::vector<Rail>& rails) {
  RailsByNode nodes;
  for (int i = 1; i <= count; ++i) nodes.emplace_back("node-0" + std::to_string(i), rails);
  return nodes;
}

// Every round's pairs share no node, and every ring edge of every rail is measured once.
TEST(RingRounds, EachRailIsARingInRoundsOfDisjointPairs) {
  for (int count : {2, 3, 4, 5, 8}) {
    const auto rounds = RingRounds(Nodes(count, {kRail0, kRail1}));
    std::set<std::string> edges;
    for (const auto& round : rounds) {
      std::set<std::string> busy;
      ASSERT_FALSE(round.empty());
      const Rail rail = round.front().rail;
      for (const auto& pair : round) {
        EXPECT_EQ(pair.pass, 1);
        EXPECT_TRUE(pair.rail == rail) << "one rail per round";
        EXPECT_TRUE(busy.insert(pair.client).second) << pair.client << " twice in a round";
        EXPECT_TRUE(busy.insert(pair.server).second) << pair.server << " twice in a round";
        EXPECT_TRUE(edges.insert(pair.rail.hca + " " + pair.client + ">" + pair.server).second);
      }
    }
    const std::size_t per_rail = count == 2 ? 1 : static_cast<std::size_t>(count);
    EXPECT_EQ(edges.size(), 2 * per_rail) << count << " nodes";
    EXPECT_LE(rounds.size(), 2u * (count % 2 == 0 ? 2u : 3u)) << count << " nodes";
  }
}

TEST(RingRounds, ARailOnOneNodeOnlyHasNoPairAndANodeWithoutItLeavesItsRing) {
  RailsByNode nodes = Nodes(3, {kRail0});
  nodes[0].second.push_back(kRail1);  // mlx5_1 is active on node-01 alone
  nodes[2].second.clear();            // node-03: no active port
  const auto rounds = RingRounds(nodes);
  ASSERT_EQ(rounds.size(), 1u);
  ASSERT_EQ(rounds[0].size(), 1u);
  EXPECT_EQ(rounds[0][0].client, "node-01");
  EXPECT_EQ(rounds[0][0].server, "node-02");
  EXPECT_EQ(rounds[0][0].rail.hca, "mlx5_0");
  EXPECT_TRUE(RingRounds(Nodes(1, {kRail0})).empty());
}

RailPair Pair(const std::string& client, const std::string& server, double gbit, const std::string& hca = "mlx5_0") {
  RailPair pair;
  pair.client = client;
  pair.server = server;
  pair.hca = hca;
  pair.bw_average_gbit_per_s = gbit;
  return pair;
}

// A ring of four on one rail where node-03 is slow: its two pairs are below the floor; it is
// measured again with a node that passed, and nobody else is.
TEST(ConfirmationRounds, TheNodeSlowInEveryPairIsMeasuredAgainWithAGoodNode) {
  std::vector<RailPair> first = {Pair("node-01", "node-02", 390), Pair("node-02", "node-03", 180),
                                 Pair("node-03", "node-04", 181), Pair("node-04", "node-01", 391),
                                 Pair("node-01", "node-02", 392, "mlx5_1")};
  RailPair failed = Pair("node-02", "node-01", 0, "mlx5_1");
  failed.bw_average_gbit_per_s.reset();
  failed.error = "Couldn't connect to node-01:18516";
  first.push_back(failed);
  const auto rounds = ConfirmationRounds(first, 360);
  std::vector<PlannedPair> planned;
  for (const auto& round : rounds) planned.insert(planned.end(), round.begin(), round.end());
  ASSERT_EQ(planned.size(), 1u);
  EXPECT_EQ(planned[0].pass, 2);
  EXPECT_EQ(planned[0].client, "node-03");
  EXPECT_NE(planned[0].server, "node-02");
  EXPECT_NE(planned[0].server, "node-04");
  EXPECT_EQ(planned[0].rail.hca, "mlx5_0");
}

// node-03 reached neither partner (perftest's handshake failed): nothing was measured on its
// rail, so it is no suspect to confirm, and the pairs count as slow for nobody.
TEST(ConfirmationRounds, PairsThatWereNotMeasuredMakeNoSuspect) {
  std::vector<RailPair> first = {Pair("node-01", "node-02", 390), Pair("node-02", "node-03", 0),
                                 Pair("node-03", "node-04", 0), Pair("node-04", "node-01", 391)};
  for (RailPair* unreached : {&first[1], &first[2]}) {
    unreached->bw_average_gbit_per_s.reset();
    unreached->error = "Couldn't connect to " + unreached->server + ":18515";
  }
  EXPECT_TRUE(ConfirmationRounds(first, 360).empty());
  first[2].error = "Completion with error at client";  // the transport gave up: maybe the rail
  EXPECT_TRUE(ConfirmationRounds(first, 360).empty()) << "node-03 still has one pair not measured";
  first[1].error = "Failed status 12: wr_id 0 syndrom 0x81";
  ASSERT_EQ(ConfirmationRounds(first, 360).size(), 1u) << "two failures that may be the rail's make a suspect";
}

TEST(ConfirmationRounds, NothingSlowMeansNoSecondPass) {
  EXPECT_TRUE(ConfirmationRounds({Pair("a", "b", 390), Pair("b", "c", 391), Pair("c", "a", 392)}, 360).empty());
}

}  // namespace
}  // namespace gpuconform::perftest
