// AllreduceBandwidth on an MPI sweep whose worker died of its node's /dev/shm: node3 is named in
// MpiNoSlowNode with the resource, its measured size and the fix; the sweep's other cases skip
// naming it; nothing fails with a code that points elsewhere (a slow node, not-measured).
#include <gtest/gtest.h>

#include "harness/suite_registry.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/mpi_sweep/step_deaths.h"
#include "tests/support/test_support.h"

namespace gpuconform::allreduce {
namespace {

// The live run's outputs: the MPI sweep failed with `table` as its text, nothing else ran.
class FailedSweep : public ProbeSource {
 public:
  explicit FailedSweep(std::string table) : table_(std::move(table)) {}
  std::vector<std::string> Nodes() const override { return {"node1", "node2", "node3"}; }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override {
    if (spec.id != mpi_sweep::MpiAllreduceProbe().id) return {ProbeStatus::kAbsent, "", node, "not run"};
    return {ProbeStatus::kFailed, table_, "node1: MPI_Allreduce sweep",
            "node1: the MPI sweep step on node[1-3] ended with exit status 135; it said: srun: error: node3: task 2: "
            "Bus error; the run and every other check stand, and each neighbour pair was measured alone to find the "
            "node"};
  }

 private:
  std::string table_;
};

std::map<std::string, CheckResult> Judge(const std::string& table) {
  const SuiteDefinition* suite = nullptr;
  for (const auto* s : SuiteRegistry::Instance().Suites()) {
    if (s->name == std::string("AllreduceBandwidth")) suite = s;
  }
  EXPECT_NE(suite, nullptr);
  std::map<std::string, CheckResult> by_check;
  if (!suite) return by_check;
  FailedSweep source(table);
  const ClusterRaw raw = FetchAll(source, suite->probes);
  const std::vector<RankInfo> ranks;
  const Profile profile = test_support::BuiltinProfile("local");
  for (auto& result : EvaluateSuite(*suite, SuiteContext{raw, profile, ranks, false, ""})) {
    by_check.emplace(result.check, result);
  }
  return by_check;
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
  const CheckResult& blame = results.at("MpiNoSlowNode");
  ASSERT_EQ(blame.verdict, Verdict::kFail) << test_support::Describe({blame});
  ASSERT_EQ(blame.findings.size(), 1u) << test_support::Describe({blame});
  EXPECT_EQ(blame.findings[0].code, "shm-exhausted");
  EXPECT_EQ(blame.findings[0].entity, "node3");
  EXPECT_TRUE(blame.findings[0].message.starts_with("node3: /dev/shm ran out (/dev/shm is 64 KiB (60 KiB free))"))
      << blame.findings[0].message;
  EXPECT_NE(blame.findings[0].message.find("--shm-size"), std::string::npos) << "the fix";
  for (const char* check : {"MpiBusbwAtFloors", "MpiResultsCorrect", "MpiEfficiencyAgainstFabric"}) {
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
  EXPECT_EQ(results.at("MpiNoSlowNode").verdict, Verdict::kFail);
  EXPECT_NE(results.at("MpiNoSlowNode").findings.at(0).code, "shm-exhausted");
  EXPECT_EQ(results.at("MpiBusbwAtFloors").verdict, Verdict::kError);
  EXPECT_EQ(results.at("MpiBusbwAtFloors").findings.at(0).code, "not-measured");
}

}  // namespace
}  // namespace gpuconform::allreduce
