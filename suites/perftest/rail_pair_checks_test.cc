// Perftest.RailPairsAtFloor: the pairing pass's results judged per rail; the slow node is named
// and its ring neighbours are not; a slow path between two good nodes names the pair; the
// pairs file is parsed strictly; and, live without an RDMA device, perftest's own words.
#include "suites/perftest/rail_pair_checks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "harness/core/reason_catalogue.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/perftest/rail_pairs_facts.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::perftest {
namespace {

const RailFloor kNdrFloor{360, "90% of 400"};

RailPairsFile File(const std::string& lines) {
  return test_support::Parsed(ParseRailPairs(lines, "cluster/perftest-rail-pairs.txt"));
}

std::vector<RailPair> Pairs(const std::string& lines) { return File(lines).pairs; }

// A ring of n nodes on mlx5_0 where the pairs touching `slow` nodes run at 180 Gb/s.
std::string Ring(int n, const std::set<int>& slow) {
  std::string lines;
  for (int i = 1; i <= n; ++i) {
    const int next = i % n + 1;
    const bool is_slow = slow.count(i) || slow.count(next);
    lines += "pair pass=1 client=n" + std::to_string(i) + " server=n" + std::to_string(next) +
             " hca=mlx5_0 port=1 bw_average_gbit_per_s=" + (is_slow ? "180" : "390") + "\n";
  }
  return lines;
}

std::vector<std::string> Entities(const CheckResult& result, const std::string& code) {
  std::vector<std::string> entities;
  for (const auto& finding : result.findings) {
    if (finding.code == code) entities.push_back(finding.entity);
  }
  return entities;
}

// The judgement has the verdict and one finding, of `code` about `entity`, whose message says `says`.
void ExpectOneFinding(const CheckResult& result, Verdict verdict, const std::string& code, const std::string& entity,
                      const std::string& says) {
  EXPECT_EQ(result.verdict, verdict);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code, code);
  EXPECT_EQ(result.findings[0].entity, entity);
  EXPECT_NE(result.findings[0].message.find(says), std::string::npos) << result.findings[0].message;
}

CheckResult JudgedSnapshot(const std::string& snapshot, const std::string& check = kRailPairsAtFloor) {
  for (const auto& result : test_support::EvaluateSuiteOnSnapshot(kSuite, test_support::FixtureDir(snapshot),
                                                                  test_support::BuiltinProfile("h100-sxm-8"))) {
    if (result.check == check) return result;
  }
  ADD_FAILURE() << "no " << check << " on " << snapshot;
  return CheckResult{};
}

// The must-show: eight nodes, one slow rail on one node; the second pass names it alone.
TEST(RailPairsAtFloor, EightNodesWithOneSlowRailNameThatNodeAndNotItsPartners) {
  const CheckResult slow = JudgedSnapshot("perftest-8node-one-slow-rail");
  ExpectOneFinding(slow, Verdict::kFail, "rail-bandwidth-low", "gpu-node-05",
                   "gpu-node-05: rail mlx5_3 port 1 is below 360 Gb/s in every pair");
  ASSERT_FALSE(slow.findings.empty());
  EXPECT_NE(slow.findings[0].message.find("with gpu-node-01 (second pass)"), std::string::npos);
  EXPECT_EQ(JudgedSnapshot("perftest-8node-healthy").verdict, Verdict::kPass);
}

// In a ring, a healthy node between two slow ones has only slow first-pass pairs; the second
// pass (planned by the MPI sweep's ConfirmationPairs) clears it.
TEST(RailPairsAtFloor, TheSecondPassClearsAHealthyNodeBetweenTwoSlowOnes) {
  const std::string first = Ring(8, {5, 7});
  std::vector<mpi_sweep::PairResult> first_pass;
  for (const auto& pair : Pairs(first)) {
    first_pass.push_back({pair.client, pair.server, 0, *pair.bw_average_gbit_per_s, ""});
  }
  const auto confirm = mpi_sweep::ConfirmationPairs(first_pass);
  ASSERT_EQ(confirm.size(), 3u) << "n5, n6 and n7 each have only slow pairs";
  std::string second;
  for (const auto& [a, b] : confirm) {
    const bool healthy = a == "n6" || b == "n6";
    second += "pair pass=2 client=" + a + " server=" + b + " hca=mlx5_0 port=1 bw_average_gbit_per_s=" +
              (healthy ? "391" : "181") + "\n";
  }
  EXPECT_EQ(Entities(CheckRailPairs(File(first), kNdrFloor), "rail-bandwidth-low"),
            (std::vector<std::string>{"n5", "n6", "n7"}))
      << "without the second pass, n6 is blamed with its neighbours";
  const CheckResult judged = CheckRailPairs(File(first + second), kNdrFloor);
  EXPECT_EQ(Entities(judged, "rail-bandwidth-low"), (std::vector<std::string>{"n5", "n7"}));
  EXPECT_TRUE(Entities(judged, "rail-pair-slow").empty());
}

TEST(RailPairsAtFloor, ASlowPathBetweenTwoGoodNodesNamesThePairAndAFailedPairQuotesPerftest) {
  const CheckResult judged = CheckRailPairs(
      File("pair pass=1 client=n1 server=n2 hca=mlx5_2 port=1 bw_average_gbit_per_s=390\n"
           "pair pass=1 client=n2 server=n3 hca=mlx5_2 port=1 error=\"Completion with error at client\"\n"
           "pair pass=1 client=n3 server=n4 hca=mlx5_2 port=1 bw_average_gbit_per_s=391\n"
           "pair pass=1 client=n4 server=n1 hca=mlx5_2 port=1 bw_average_gbit_per_s=389\n"),
      kNdrFloor);
  ASSERT_EQ(judged.verdict, Verdict::kFail);
  ASSERT_EQ(judged.findings.size(), 1u);
  EXPECT_EQ(judged.findings[0].code, "rail-pair-slow");
  EXPECT_EQ(judged.findings[0].entity, "n2,n3");
  EXPECT_NE(judged.findings[0].message.find("failed (Completion with error at client)"), std::string::npos);
  EXPECT_EQ(judged.measurements.size(), 4u);
}

// perftest's handshake goes over the management network: a pair that could not connect says
// nothing about its rail. Every measured pair is at the floor, so nothing is slow; the pair is
// the tooling's error, naming both nodes, the rail and perftest's words.
TEST(RailPairsAtFloor, APairThatCouldNotConnectIsNotSlowButAToolingErrorNamingBothNodes) {
  const std::string failed = "pair pass=1 client=n2 server=n3 hca=mlx5_2 port=1 error=";
  const std::string others =
      "pair pass=1 client=n1 server=n2 hca=mlx5_2 port=1 bw_average_gbit_per_s=390\n"
      "pair pass=1 client=n3 server=n4 hca=mlx5_2 port=1 bw_average_gbit_per_s=391\n"
      "pair pass=1 client=n4 server=n1 hca=mlx5_2 port=1 bw_average_gbit_per_s=389\n";
  const CheckResult judged = CheckRailPairs(File(failed + "\"Couldn't connect to n3:18515\"\n" + others), kNdrFloor);
  ExpectOneFinding(judged, Verdict::kError, "rail-pair-not-measured", "n2,n3",
                   "n2 -> n3 on rail mlx5_2 port 1: not measured by ib_write_bw, in perftest's own words: "
                   "\"Couldn't connect to n3:18515\"");
  EXPECT_EQ(FindReason("rail-pair-not-measured")->fault_class, FaultClass::kTooling);
  EXPECT_EQ(judged.measurements.size(), 4u);
  // A pair killed at its deadline, or whose GPU buffers perftest could not set up, is the same.
  for (const std::string error : {"ib_write_bw did not finish within 20 s and was killed", "cuInit(0) returned 100"}) {
    EXPECT_EQ(Entities(CheckRailPairs(File(failed + "\"" + error + "\"\n" + others), kNdrFloor), "rail-pair-not-measured"),
              std::vector<std::string>{"n2,n3"})
        << error;
  }
}

// n3 reached neither ring neighbour: both its failed pairs used to count as slow and name its
// rail; now neither counts, n3 is not blamed, and beside a real slow node the tooling's
// findings ride along with the failure.
TEST(RailPairsAtFloor, ANodeThatReachedNoPartnerIsNotBlamedAndASlowNodeStillIs) {
  const std::string unreached =
      "pair pass=1 client=n1 server=n2 hca=mlx5_1 port=1 bw_average_gbit_per_s=390\n"
      "pair pass=1 client=n2 server=n3 hca=mlx5_1 port=1 error=\"Couldn't connect to n3:18515\"\n"
      "pair pass=1 client=n3 server=n4 hca=mlx5_1 port=1 error=\"Failed to exchange data between server and clients\"\n"
      "pair pass=1 client=n4 server=n1 hca=mlx5_1 port=1 bw_average_gbit_per_s=389\n";
  const CheckResult judged = CheckRailPairs(File(unreached), kNdrFloor);
  EXPECT_EQ(judged.verdict, Verdict::kError);
  EXPECT_TRUE(Entities(judged, "rail-bandwidth-low").empty());
  EXPECT_EQ(Entities(judged, "rail-pair-not-measured"), (std::vector<std::string>{"n2,n3", "n3,n4"}));
  const CheckResult mixed = CheckRailPairs(File(unreached + Ring(8, {5})), kNdrFloor);
  EXPECT_EQ(mixed.verdict, Verdict::kFail);
  EXPECT_EQ(Entities(mixed, "rail-bandwidth-low"), std::vector<std::string>{"n5"});
  EXPECT_EQ(Entities(mixed, "rail-pair-not-measured"), (std::vector<std::string>{"n2,n3", "n3,n4"}));
}

TEST(RailPairsAtFloor, ASnapshotWhoseHandshakesFailedBlamesNoRail) {
  const CheckResult judged = JudgedSnapshot("perftest-8node-handshake-failed");
  EXPECT_EQ(judged.verdict, Verdict::kError);
  EXPECT_TRUE(Entities(judged, "rail-bandwidth-low").empty());
  EXPECT_TRUE(Entities(judged, "rail-pair-slow").empty());
  EXPECT_EQ(Entities(judged, "rail-pair-not-measured"),
            (std::vector<std::string>{"gpu-node-04,gpu-node-05", "gpu-node-05,gpu-node-06"}));
  EXPECT_EQ(JudgedSnapshot("perftest-8node-handshake-failed", kRailLatencyConsistent).verdict, Verdict::kPass);
}

// Nodes with active rails but no ib_write_bw: the tooling's error, naming them as a hostlist
// with the fix. A node without ib_write_bw and without an active rail, or one without an RDMA
// device, leaves nothing unmeasured here, and a file without unpaired lines reads as before.
TEST(RailPairsAtFloor, NodesWithRailsButNoPerftestAreAToolingErrorNamingThem) {
  const std::string ring = Ring(4, {});
  const std::string unpaired =
      "unpaired node=n5 status=missing rails=mlx5_0:1,mlx5_1:1 why=\"ib_write_bw is not installed\"\n"
      "unpaired node=n6 status=missing rails=mlx5_0:1 why=\"ib_write_bw is not installed\"\n"
      "unpaired node=n7 status=missing why=\"ib_write_bw is not installed\"\n"
      "unpaired node=n8 status=failed why=\"no RDMA device, in perftest's own words: 'Did not detect devices'\"\n";
  const CheckResult judged = CheckRailPairs(File(ring + unpaired), kNdrFloor);
  ExpectOneFinding(judged, Verdict::kError, "tool-missing", "n[5-6]",
                   "n[5-6]: ib_write_bw (perftest) is not installed, so their active rails were not measured with "
                   "any other node; install perftest there");
  EXPECT_EQ(CheckRailPairs(File(ring + unpaired.substr(unpaired.find("unpaired node=n7"))), kNdrFloor).verdict,
            Verdict::kPass);
  EXPECT_EQ(CheckRailPairs(File("# not paired: n5: ib_write_bw is not installed\n" + ring), kNdrFloor).verdict,
            Verdict::kPass);
  // Beside a slow node, the missing tool rides along with the failure.
  const CheckResult mixed = CheckRailPairs(File(Ring(4, {3}) + unpaired), kNdrFloor);
  EXPECT_EQ(mixed.verdict, Verdict::kFail);
  EXPECT_EQ(Entities(mixed, "rail-bandwidth-low"), std::vector<std::string>{"n3"});
  EXPECT_EQ(Entities(mixed, "tool-missing"), std::vector<std::string>{"n[5-6]"});
}

TEST(RailPairsAtFloor, TheFloorComesFromTheProfileRateAndLocalSkips) {
  const auto floor = RailFloorOf(test_support::BuiltinProfile("h100-sxm-8"));
  ASSERT_TRUE(floor.has_value());
  EXPECT_DOUBLE_EQ(floor->gbit_per_s, 360);
  EXPECT_FALSE(RailFloorOf(test_support::BuiltinProfile("local")).has_value());
  for (const auto& result : test_support::EvaluateSuiteOnSnapshot(kSuite, test_support::FixtureDir("perftest-8node-healthy"),
                                                                  test_support::BuiltinProfile("local"))) {
    EXPECT_EQ(result.verdict, Verdict::kSkip);
  }
}

TEST(RailPairsParse, RefusesBrokenLinesNamingThem) {
  test_support::ExpectEachRefused(
      ParseRailPairs,
      {{"pair pass=3 client=a server=b hca=mlx5_0 port=1 bw_average_gbit_per_s=1\n", "f:1: a pair needs pass=1 or pass=2"},
       {"pair pass=1 client=a server=a hca=mlx5_0 port=1 bw_average_gbit_per_s=1\n", "f:1: a pair needs two nodes"},
       {"pair pass=1 client=a server=b hca=mlx5_0 port=1\n", "f:1: a pair needs either bw_average_gbit_per_s= or error="},
       {"pair pass=1 client=a server=b hca=mlx5_0 port=1 bw_average_gbit_per_s=-3\n", "f:1: bw_average_gbit_per_s must"},
       {"link pass=1\n", "f:1: unknown record 'link'"},
       {"unpaired status=missing\n", "f:1: an unpaired line needs node="},
       {"unpaired node=a status=gone\n", "f:1: an unpaired line needs status=missing or status=failed"},
       {"# nothing\n", "f:1: no pair lines"}});
}

// Eight nodes, one rail of one node with a high latency: that node is named, its two ring
// partners (which meet the ceiling with their other partners) are not, and bandwidth passes.
TEST(RailLatencyConsistent, EightNodesWithOneHighLatencyRailNameThatNode) {
  const CheckResult high = JudgedSnapshot("perftest-8node-one-high-latency", kRailLatencyConsistent);
  ASSERT_EQ(high.verdict, Verdict::kFail);
  ASSERT_EQ(high.findings.size(), 1u) << high.findings[1].message;
  EXPECT_EQ(high.findings[0].code, "rail-latency-high");
  EXPECT_EQ(high.findings[0].entity, "gpu-node-05");
  EXPECT_NE(high.findings[0].message.find("gpu-node-05: rail mlx5_4 port 1 is above"), std::string::npos)
      << high.findings[0].message;
  EXPECT_NE(high.findings[0].message.find("us with gpu-node-04"), std::string::npos) << high.findings[0].message;
  EXPECT_EQ(JudgedSnapshot("perftest-8node-one-high-latency").verdict, Verdict::kPass);
  EXPECT_EQ(JudgedSnapshot("perftest-8node-healthy", kRailLatencyConsistent).verdict, Verdict::kPass);
  // A pass that measured bandwidth only says so.
  const CheckResult older = JudgedSnapshot("perftest-8node-one-slow-rail", kRailLatencyConsistent);
  EXPECT_EQ(older.verdict, Verdict::kSkip);
}

// One pair high between two nodes that meet the ceiling with others: the path is named.
TEST(RailLatencyConsistent, AHighPairBetweenGoodNodesNamesThePathAndAFailedRunCounts) {
  const std::string ring =
      "pair pass=1 client=n1 server=n2 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=1.2\n"
      "pair pass=1 client=n2 server=n3 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=9.5\n"
      "pair pass=1 client=n3 server=n4 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=1.3\n"
      "pair pass=1 client=n4 server=n1 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=1.2\n";
  const CheckResult path = CheckRailLatency(Pairs(ring));
  ASSERT_EQ(path.verdict, Verdict::kFail);
  EXPECT_EQ(Entities(path, "rail-pair-latency-high"), std::vector<std::string>{"n2,n3"});
  EXPECT_NE(path.findings[0].message.find("n2 -> n3 on rail mlx5_0 port 1: 9.50 us"), std::string::npos)
      << path.findings[0].message;
  const std::string failed = ring + "pair pass=1 client=n1 server=n3 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 "
                                    "lat_error=\"Couldn't connect to n3:19015\"\n";
  // A latency run that failed while measuring counts as high; n3 still meets the ceiling with
  // n4, so both pairs are paths, not n3.
  const std::string broken = ring + "pair pass=1 client=n1 server=n3 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 "
                                    "lat_error=\"Completion with error at client\"\n";
  EXPECT_EQ(Entities(CheckRailLatency(Pairs(broken)), "rail-pair-latency-high"),
            (std::vector<std::string>{"n2,n3", "n1,n3"}));
  // One that never reached its server was not measured: the tooling's, naming both nodes, and
  // no path is blamed for it.
  const CheckResult unreached = CheckRailLatency(Pairs(failed));
  EXPECT_EQ(unreached.verdict, Verdict::kFail);
  EXPECT_EQ(Entities(unreached, "rail-pair-latency-high"), std::vector<std::string>{"n2,n3"});
  EXPECT_EQ(Entities(unreached, "rail-pair-not-measured"), std::vector<std::string>{"n1,n3"});
  EXPECT_EQ(CheckRailLatency(Pairs(ring)).measurements.size(), 4u);
}

// Every latency measured is near the median, and one run could not connect: the check is the
// tooling's error naming both nodes and ib_write_lat's words, not a high latency.
TEST(RailLatencyConsistent, ARunThatCouldNotConnectIsAToolingErrorNotAHighLatency) {
  const CheckResult judged = CheckRailLatency(
      Pairs("pair pass=1 client=n1 server=n2 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=1.2\n"
            "pair pass=1 client=n2 server=n3 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 "
            "lat_error=\"Couldn't connect to n3:19015\"\n"
            "pair pass=1 client=n3 server=n4 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=1.3\n"
            "pair pass=1 client=n4 server=n1 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=1.2\n"));
  ExpectOneFinding(judged, Verdict::kError, "rail-pair-not-measured", "n2,n3",
                   "n2 -> n3 on rail mlx5_0 port 1: not measured by ib_write_lat, in perftest's own words: "
                   "\"Couldn't connect to n3:19015\"");
  EXPECT_EQ(judged.measurements.size(), 3u);
}

TEST(RailLatencyConsistent, FewerThanThreePairsOnARailAreNotJudged) {
  const CheckResult few = CheckRailLatency(
      Pairs("pair pass=1 client=n1 server=n2 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=1.2\n"
            "pair pass=1 client=n2 server=n1 hca=mlx5_0 port=1 bw_average_gbit_per_s=390 lat_average_us=9.2\n"));
  EXPECT_EQ(few.verdict, Verdict::kSkip);
  ASSERT_FALSE(few.findings.empty());
  EXPECT_NE(few.findings[0].message.find("fewer than three pairs"), std::string::npos) << few.findings[0].message;
}

TEST(RailPairsParse, LatencyIsOptionalButNeverBothOrNegative) {
  test_support::ExpectEachRefused(
      ParseRailPairs,
      {{"pair pass=1 client=a server=b hca=mlx5_0 port=1 bw_average_gbit_per_s=1 lat_average_us=1 lat_error=x\n",
        "f:1: a pair carries lat_average_us= or lat_error=, not both"},
       {"pair pass=1 client=a server=b hca=mlx5_0 port=1 bw_average_gbit_per_s=1 lat_average_us=-2\n",
        "f:1: lat_average_us must be a positive number"}});
  const auto pairs = Pairs("pair pass=1 client=a server=b hca=mlx5_0 port=1 bw_average_gbit_per_s=1 lat_average_us=1.5\n");
  ASSERT_TRUE(pairs[0].lat_average_us.has_value());
  EXPECT_DOUBLE_EQ(*pairs[0].lat_average_us, 1.5);
}

}  // namespace
}  // namespace gpuconform::perftest
