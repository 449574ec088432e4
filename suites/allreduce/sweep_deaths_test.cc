// AllreduceBandwidth on an MPI sweep (and on gpuconform's own NCCL run, NcclBusbwAtFloors)
// whose worker died of its node's /dev/shm: node3 is named in MpiNoSlowNode with the resource, its measured size and the fix; the sweep's other cases skip
// naming it; nothing fails with a code that points elsewhere (a slow node, not-measured). And
// the MPI cases where the ranks stalled (the rule does not apply) or the sweep was not run.
#include <gtest/gtest.h>

#include "harness/core/suite_registry.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/mpi_sweep/step_deaths.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_run/nccl_worker_death.h"
#include "suites/allreduce/allreduce_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::allreduce {
namespace {

// The live run's outputs: the probe `probe_id` failed with `table` as its text, nothing else ran.
class FailedRun : public ProbeSource {
 public:
  FailedRun(std::string probe_id, std::string table, std::string detail)
      : probe_id_(std::move(probe_id)), table_(std::move(table)), detail_(std::move(detail)) {}
  std::vector<std::string> Nodes() const override { return {"node1", "node2", "node3"}; }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override {
    if (spec.id != probe_id_) return {ProbeStatus::kAbsent, "", node, "not run"};
    return {ProbeStatus::kFailed, table_, "node1: " + probe_id_, detail_};
  }

 private:
  std::string probe_id_;
  std::string table_;
  std::string detail_;
};

std::map<std::string, CheckResult> JudgeRun(const std::string& probe_id, const std::string& table,
                                             const std::string& detail, const std::string& profile_name,
                                             const std::string& world_problem = "") {
  const SuiteDefinition& suite = test_support::RegisteredSuite(kSuite);
  FailedRun source(probe_id, table, detail);
  const ClusterRaw raw = FetchAll(source, suite.probes);
  const std::vector<RankInfo> ranks;
  const Profile profile = test_support::BuiltinProfile(profile_name);
  std::map<std::string, CheckResult> by_check;
  for (auto& result : test_support::EvaluateOneSuite(suite, SuiteContext{raw, profile, ranks, false, world_problem})) {
    by_check.emplace(result.check, result);
  }
  return by_check;
}

std::map<std::string, CheckResult> Judge(const std::string& table) {
  return JudgeRun(mpi_sweep::MpiAllreduceProbe().id, table,
                  "node1: the MPI sweep step on node[1-3] ended with exit status 135; it said: srun: error: node3: "
                  "task 2: Bus error; the run and every other check stand, and each neighbour pair was measured "
                  "alone to find the node",
                  "local");
}

// What the probe writes after node3's worker died of SIGBUS in a 64 KiB /dev/shm, and its blame
// pass found node3's pairs failing the same way.
std::string Node3ShmTable(bool with_death_lines) {
  resource_limits::NodeLimits small;
  small.shm_bytes = 64 << 10;
  small.shm_free_bytes = 60 << 10;
  const std::string died =
      "It appears as if there is not enough space for /dev/shm/vader_segment.node3.9c2b0001.2 (the shared-memory "
      "backing file).\nsrun: error: node3: task 2: Bus error\nsrun: Terminating StepId=12.3\n"
      "srun: error: node1: task 0: Killed\n";
  std::string table = mpi_sweep::NodeLimitsLine("node1", {}) + mpi_sweep::NodeLimitsLine("node3", small) +
                      mpi_sweep::NodeLimitsLine("node2", {});
  if (with_death_lines) table += mpi_sweep::DeathLines(mpi_sweep::StepDeaths(died, {"node1", "node2", "node3"}, false));
  return table + "# pair node1 node2 8388608 busbw 0.812\n"
                 "# pair-failed node2 node3 8388608 its step ended with exit status 135; it said: srun: error: node3: "
                 "task 1: Bus error\n"
                 "# pair-failed node3 node1 8388608 its step ended with exit status 135; it said: srun: error: node3: "
                 "task 0: Bus error\n";
}

TEST(AllreduceMpiSweepDeaths, AWorkerDeadOfShmFailsItsNodeWithTheResourceAndTheRestSkip) {
  const auto results = Judge(Node3ShmTable(true));
  const CheckResult& blame = results.at(kMpiNoSlowNode);
  ASSERT_EQ(blame.verdict, Verdict::kFail) << test_support::Describe({blame});
  ASSERT_EQ(blame.findings.size(), 1u) << test_support::Describe({blame});
  EXPECT_EQ(blame.findings[0].code, "shm-exhausted");
  EXPECT_EQ(blame.findings[0].entity, "node3");
  EXPECT_TRUE(blame.findings[0].message.starts_with("node3: /dev/shm ran out (/dev/shm is 64 KiB (60 KiB free))"))
      << blame.findings[0].message;
  EXPECT_NE(blame.findings[0].message.find("--shm-size"), std::string::npos) << "the fix";
  for (const char* check : {kMpiBusbwAtFloors, kMpiResultsCorrect, kMpiEfficiencyAgainstFabric}) {
    const CheckResult& result = results.at(check);
    EXPECT_EQ(result.verdict, Verdict::kSkip) << check << ": " << test_support::Describe({result});
    ASSERT_FALSE(result.findings.empty()) << check;
    EXPECT_NE(result.findings[0].message.find("the MPI sweep worker on node3 died of /dev/shm exhaustion"),
              std::string::npos)
        << result.findings[0].message;
    EXPECT_NE(result.findings[0].message.find("AllreduceBandwidth.MpiNoSlowNode"), std::string::npos)
        << result.findings[0].message;
  }
}

// Without the death lines (a table from before them) the same sweep is judged as before: the
// failed pairs blame node3 under another code, and the sweep is not measured.
TEST(AllreduceMpiSweepDeaths, ATableWithoutDeathLinesIsJudgedAsBefore) {
  const auto results = Judge(Node3ShmTable(false));
  EXPECT_EQ(results.at(kMpiNoSlowNode).verdict, Verdict::kFail);
  EXPECT_NE(results.at(kMpiNoSlowNode).findings.at(0).code, "shm-exhausted");
  EXPECT_EQ(results.at(kMpiBusbwAtFloors).verdict, Verdict::kError);
  EXPECT_EQ(results.at(kMpiBusbwAtFloors).findings.at(0).code, "not-measured");
}

// Where the ranks stalled, that is every MPI case's verdict, even with a worker's death in the
// sweep's table; the other runs are judged as without it.
TEST(AllreduceMpiSweepDeaths, RanksThatStalledAreEveryMpiCaseAndNoDeathIsApplied) {
  const std::string stalled = "MPI_Init did not complete within 60 s: rank 2 (node3) never joined";
  const auto results = JudgeRun(mpi_sweep::MpiAllreduceProbe().id, Node3ShmTable(true), "the sweep failed", "local",
                                stalled);
  for (const char* check : {kMpiBusbwAtFloors, kMpiResultsCorrect, kMpiNoSlowNode, kMpiEfficiencyAgainstFabric}) {
    const CheckResult& result = results.at(check);
    EXPECT_EQ(result.verdict, Verdict::kError) << check << ": " << test_support::Describe({result});
    ASSERT_EQ(result.findings.size(), 1u) << check;
    EXPECT_EQ(result.findings[0].code, "world-stalled") << check;
    EXPECT_EQ(result.findings[0].message, stalled) << check;
  }
  EXPECT_EQ(results.at(kNcclTestsBusbwAtFloors).verdict, Verdict::kSkip) << "no nccl-tests output was given";
}

// A sweep that was not run is skipped by each MPI case, saying what is missing.
TEST(AllreduceMpiSweepDeaths, ASweepNotRunIsSkippedSayingWhatIsMissing) {
  const auto results = JudgeRun(nccl_run::NcclAllreduceProbe().id, "", "the NCCL run failed", "local");
  const std::map<std::string, std::string> expected = {
      {kMpiBusbwAtFloors, "not run"},
      {kMpiResultsCorrect, "not run"},
      {kMpiNoSlowNode, "no pairwise measurement: not run"},
      {kMpiEfficiencyAgainstFabric, "no measurement: not run"},
  };
  for (const auto& [check, message] : expected) {
    const CheckResult& result = results.at(check);
    EXPECT_EQ(result.verdict, Verdict::kSkip) << check << ": " << test_support::Describe({result});
    ASSERT_EQ(result.findings.size(), 1u) << check;
    EXPECT_EQ(result.findings[0].message, message) << check;
  }
}

// gpuconform's own NCCL run, judged under a GPU profile, failed at init on every node.
std::map<std::string, CheckResult> JudgeNccl(const std::string& table) {
  return JudgeRun(nccl_run::NcclAllreduceProbe().id, table,
                  "node1: NCCL communicator init (ncclCommInitRank on 8 GPU(s)) did not complete within 120 s: "
                  "another node failed, or the bootstrap network cannot reach the root (NCCL_SOCKET_IFNAME?)",
                  "h100-sxm-8");
}

// What the probe writes after node3's worker died of SIGBUS in a 64 KiB /dev/shm during init:
// the header (no size completed), each node's limits, and node3's death.
std::string Node3NcclShmTable(bool with_records) {
  std::string table =
      "# gpuconform NCCL allreduce (float, sum) on GPU buffers, NCCL 2.21.5, CUDA 12.4\n"
      "# nThread 1 nGpus 1 minBytes 8388608 maxBytes 17179869184 step: 2(factor) warmup iters: 5 iters: 20\n";
  if (!with_records) return table;
  resource_limits::NodeLimits small;
  small.shm_bytes = 64 << 10;
  small.shm_free_bytes = 60 << 10;
  nccl_run::WorkerEnd bus;
  bus.signal = 7;
  const auto death = nccl_run::NcclWorkerDeath(
      bus, "",
      "node3:4411:4433 [1] include/shmutils.cc:41 NCCL WARN Error: failed to extend /dev/shm/nccl-qJ7dMa to 9637892 "
      "bytes\n");
  return table + resource_limits::NodeLimitsLine("node1", {}) + resource_limits::NodeLimitsLine("node2", {}) +
         resource_limits::NodeLimitsLine("node3", small) + resource_limits::DeathLines({{"node3", *death}});
}

TEST(AllreduceNcclRunDeaths, AWorkerDeadOfShmFailsItsNodeWithTheResourceAndTheRestSkip) {
  const auto results = JudgeNccl(Node3NcclShmTable(true));
  const CheckResult& floors = results.at(kNcclBusbwAtFloors);
  ASSERT_EQ(floors.verdict, Verdict::kFail) << test_support::Describe({floors});
  ASSERT_EQ(floors.findings.size(), 1u) << test_support::Describe({floors});
  EXPECT_EQ(floors.findings[0].code, "shm-exhausted");
  EXPECT_EQ(floors.findings[0].entity, "node3");
  EXPECT_TRUE(floors.findings[0].message.starts_with("node3: /dev/shm ran out (/dev/shm is 64 KiB (60 KiB free))"))
      << floors.findings[0].message;
  EXPECT_NE(floors.findings[0].message.find("failed to extend /dev/shm/nccl-qJ7dMa"), std::string::npos);
  EXPECT_NE(floors.findings[0].message.find("--shm-size"), std::string::npos) << "the fix";
  for (const char* check : {kNcclResultsCorrect, kNcclEfficiencyAgainstFabric}) {
    const CheckResult& result = results.at(check);
    EXPECT_EQ(result.verdict, Verdict::kSkip) << check << ": " << test_support::Describe({result});
    ASSERT_FALSE(result.findings.empty()) << check;
    EXPECT_NE(result.findings[0].message.find("the NCCL worker on node3 died of /dev/shm exhaustion"),
              std::string::npos)
        << result.findings[0].message;
    EXPECT_NE(result.findings[0].message.find("AllreduceBandwidth.NcclBusbwAtFloors"), std::string::npos)
        << result.findings[0].message;
  }
}

// Without the records (a table from before them) the failed run is judged as before: not measured.
TEST(AllreduceNcclRunDeaths, ATableWithoutDeathRecordsIsJudgedAsBefore) {
  const auto results = JudgeNccl(Node3NcclShmTable(false));
  for (const char* check : {kNcclBusbwAtFloors, kNcclResultsCorrect, kNcclEfficiencyAgainstFabric}) {
    EXPECT_EQ(results.at(check).verdict, Verdict::kError) << check;
    EXPECT_EQ(results.at(check).findings.at(0).code, "not-measured") << check;
  }
}

}  // namespace
}  // namespace gpuconform::allreduce
